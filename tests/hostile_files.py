"""Hostile archives built in memory for the tests: zip bombs that really unzip to gigabytes, sheets
whose <dimension> lies, shared strings of hundreds of megabytes. Deflate streams are assembled from
one compressed block repeated (each ends with a full flush, so it stands alone), which makes a
2 GB member in a second instead of compressing 2 GB."""
from __future__ import annotations

import io
import re
import struct
import zlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Repeated:
    """A member's content: prefix + chunk * count + suffix, never held whole in memory."""

    prefix: bytes
    chunk: bytes
    count: int
    suffix: bytes

    def deflated(self) -> tuple[bytes, int, int]:
        """(raw deflate stream, crc32, uncompressed size)."""
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        head = c.compress(self.prefix) + c.flush(zlib.Z_FULL_FLUSH)
        block = c.compress(self.chunk) + c.flush(zlib.Z_FULL_FLUSH)
        tail = c.compress(self.suffix) + c.flush()
        crc = zlib.crc32(self.prefix)
        for _ in range(self.count):
            crc = zlib.crc32(self.chunk, crc)
        crc = zlib.crc32(self.suffix, crc)
        size = len(self.prefix) + len(self.chunk) * self.count + len(self.suffix)
        return head + block * self.count + tail, crc & 0xFFFFFFFF, size


def build_zip(members: dict[str, bytes | Repeated]) -> bytes:
    """A zip archive (deflated members, sizes under 4 GiB) written byte by byte."""
    out = io.BytesIO()
    central = []
    for name, content in members.items():
        if isinstance(content, Repeated):
            data, crc, size = content.deflated()
        else:
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            data, crc, size = c.compress(content) + c.flush(), zlib.crc32(content) & 0xFFFFFFFF, len(content)
        raw = name.encode()
        offset = out.tell()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(data), size, len(raw), 0))
        out.write(raw)
        out.write(data)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(data), size,
                                   len(raw), 0, 0, 0, 0, 0, offset) + raw)
    start = out.tell()
    for entry in central:
        out.write(entry)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), out.tell() - start, start, 0))
    return out.getvalue()


def members_of(data: bytes) -> dict[str, bytes]:
    """The members of an archive, with the save time in its properties fixed: the same bytes on every call,
    which hypothesis needs (a time whose digits compress differently changes the archive's length)."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    if "docProps/core.xml" in members:
        members["docProps/core.xml"] = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?",
                                              b"2026-01-01T00:00:00Z", members["docProps/core.xml"])
    return members


def plain_docx() -> dict[str, bytes]:
    import docx

    buffer = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("Maria: We lost 15 volunteers in the first month.")
    document.save(buffer)
    return members_of(buffer.getvalue())


def docx_bomb(gigabytes: float = 2.0) -> bytes:
    """A .docx of about 2 MB whose document.xml unzips to ``gigabytes`` of paragraphs."""
    members = plain_docx()
    xml = members["word/document.xml"]
    body = xml.index(b"<w:body>") + len(b"<w:body>")
    chunk = b"<w:p><w:r><w:t>the clinic closed twice</w:t></w:r></w:p>" * 16384
    count = int(gigabytes * 2**30 / len(chunk))
    members["word/document.xml"] = Repeated(xml[:body], chunk, count, b"</w:body></w:document>")
    return build_zip(members)


def plain_xlsx(rows: int = 3, sheet_name: str = "Quotes", header=("quote_id", "quote")) -> dict[str, bytes]:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = sheet_name
    sheet.append(list(header))
    for k in range(rows):
        sheet.append([f"q{k}", f"We lost {k} volunteers in the first month"] + [""] * (len(header) - 2))
    buffer = io.BytesIO()
    book.save(buffer)
    return members_of(buffer.getvalue())


def _sheet_parts(xml: bytes) -> tuple[bytes, bytes]:
    start = xml.index(b"<sheetData>") + len(b"<sheetData>")
    end = xml.index(b"</sheetData>")
    return xml[:start], xml[end:]


def xlsx_wide_dimension(rows: int = 20000) -> bytes:
    """An .xlsx of about 34 KB: a few thousand short rows, and a <dimension> claiming 16,384 columns."""
    members = plain_xlsx(0)
    head, tail = _sheet_parts(members["xl/worksheets/sheet1.xml"])
    head = head.replace(b'<dimension ref="A1:B1"/>', f'<dimension ref="A1:XFD{rows + 1}"/>'.encode())
    lines = [b'<row r="1"><c r="A1" t="inlineStr"><is><t>quote_id</t></is></c>'
             b'<c r="B1" t="inlineStr"><is><t>quote</t></is></c></row>']
    lines += [f'<row r="{k}"><c r="A{k}" t="inlineStr"><is><t>q{k}</t></is></c><c r="B{k}" t="inlineStr"><is><t>'
              f'We lost 15 volunteers</t></is></c></row>'.encode() for k in range(2, rows + 2)]
    members["xl/worksheets/sheet1.xml"] = head + b"".join(lines) + tail
    return build_zip(members)


def xlsx_wide_rows(rows: int = 2000) -> bytes:
    """An .xlsx whose rows each hold a cell in the last column, XFD: 16,384 cells a row once filled in."""
    members = plain_xlsx(0)
    head, tail = _sheet_parts(members["xl/worksheets/sheet1.xml"])
    lines = [b'<row r="1"><c r="A1" t="inlineStr"><is><t>quote_id</t></is></c><c r="B1" t="inlineStr"><is><t>quote'
             b'</t></is></c><c r="C1" t="inlineStr"><is><t>decision</t></is></c></row>']
    lines += [f'<row r="{k}"><c r="A{k}" t="inlineStr"><is><t>q</t></is></c><c r="XFD{k}"><v>1</v></c>'
              f'</row>'.encode() for k in range(2, rows + 2)]
    members["xl/worksheets/sheet1.xml"] = head + b"".join(lines) + tail
    return build_zip(members)


def xlsx_shared_strings_bomb(megabytes: int = 300) -> bytes:
    """An .xlsx of under a megabyte whose shared strings unzip to ``megabytes``."""
    members = plain_xlsx(0)
    head, tail = _sheet_parts(members["xl/worksheets/sheet1.xml"])
    members["xl/worksheets/sheet1.xml"] = head + (b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>'
                                                  b'<row r="2"><c r="A2" t="s"><v>1</v></c></row>') + tail
    chunk = b"<si><t>" + b"We lost 15 volunteers in the first month. " * 24 + b"</t></si>"
    chunk *= 1024
    count = megabytes * 2**20 // len(chunk)
    members["xl/sharedStrings.xml"] = Repeated(
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/'
        b'spreadsheetml/2006/main"><si><t>quote</t></si>', chunk, count, b"</sst>")
    types = members["[Content_Types].xml"]
    if b"sharedStrings" not in types:
        members["[Content_Types].xml"] = types.replace(
            b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                         b'officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
        rels = members["xl/_rels/workbook.xml.rels"]
        members["xl/_rels/workbook.xml.rels"] = rels.replace(
            b"</Relationships>", b'<Relationship Id="rIdSS" Type="http://schemas.openxmlformats.org/officeDocument/'
                                 b'2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    return build_zip(members)


def xlsx_bomb(gigabytes: float = 2.0, header=("quote_id", "quote")) -> bytes:
    """An .xlsx whose sheet unzips to ``gigabytes`` of rows."""
    members = plain_xlsx(0, header=header)
    head, tail = _sheet_parts(members["xl/worksheets/sheet1.xml"])
    first = "".join(f'<c r="{chr(65 + k)}1" t="inlineStr"><is><t>{name}</t></is></c>' for k, name in enumerate(header))
    row = b'<row><c t="inlineStr"><is><t>q</t></is></c><c t="inlineStr"><is><t>We lost 15 volunteers</t></is></c></row>'
    chunk = row * 8192
    count = int(gigabytes * 2**30 / len(chunk))
    members["xl/worksheets/sheet1.xml"] = Repeated(head + f'<row r="1">{first}</row>'.encode(), chunk, count, tail)
    return build_zip(members)
