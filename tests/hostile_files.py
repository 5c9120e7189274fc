"""Hostile archives built in memory for the tests: zip bombs that really unzip to gigabytes, sheets
whose <dimension> lies, shared strings of hundreds of megabytes. Deflate streams are assembled from
one compressed block repeated (each ends with a full flush, so it stands alone), which makes a
2 GB member in a second instead of compressing 2 GB.

Round two adds files that cost too much or mislead without being archives: PDFs whose pages reuse one
stream, subtitle markup that never closes, tables of 100,000 columns, JSON and YAML that Python's readers
take too far, QDA projects with shared GUIDs or 300,000 segments, and formula cells."""
from __future__ import annotations

import io
import json
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


# --- round two: documents, tables, JSON, YAML and projects built to cost too much or mislead -------------


def pdf(content: bytes, *, pages: int = 1, forms: dict[str, bytes] | None = None, cmap: bytes = b"") -> bytes:
    """A PDF whose ``pages`` all draw one compressed content stream (reused, as a bomb reuses it), with
    Helvetica as /F1 (its character map ``cmap``, if given) and each of ``forms`` (name -> content) as a form
    XObject."""
    forms = forms or {}
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica" + (b" /ToUnicode 5 0 R" if cmap else b"") + b" >>"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", font]

    def stream(data: bytes, head: bytes = b"") -> bytes:
        packed = zlib.compress(data, 9)
        return (b"<< " + head + b"/Filter /FlateDecode /Length " + str(len(packed)).encode() + b" >>\nstream\n"
                + packed + b"\nendstream")

    objects.append(stream(content))
    if cmap:
        objects.append(stream(cmap))  # object 5
    names = []
    for name, body in forms.items():
        objects.append(stream(body, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
                                    b"/Resources << /Font << /F1 3 0 R >> >> "))
        names.append(f"/{name} {len(objects)} 0 R".encode())
    xobjects = b" /XObject << " + b" ".join(names) + b" >>" if names else b""
    first = len(objects) + 1
    for _ in range(pages):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >>"
                       + xobjects + b" >> /Contents 4 0 R >>")
    kids = " ".join(f"{first + k} 0 R" for k in range(pages)).encode()
    objects[1] = b"<< /Type /Pages /Kids [" + kids + b"] /Count " + str(pages).encode() + b" >>"
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    out.write(b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets))
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def text_ops(lines: int, *, numbered: bool = False) -> bytes:
    """A content stream showing ``lines`` lines of text (each its own number when ``numbered``)."""
    body = b"".join(f"(We lost {k if numbered else 15} volunteers in the first month.) Tj T*\n".encode()
                    for k in range(lines))
    return b"BT /F1 12 Tf 14 TL 72 720 Td\n" + body + b"ET\n"


def pdf_page_reuse(pages: int = 100, lines: int = 30000) -> bytes:
    """Some 25 KB whose pages all draw one stream of ``lines`` lines: 200 MB of text if read through."""
    return pdf(text_ops(lines), pages=pages)


def pdf_dense(lines: int = 120_000) -> bytes:
    """One page of ``lines`` numbered lines: a few hundred KB that take pypdf many seconds to read."""
    return pdf(text_ops(lines, numbered=True))


def pdf_form_reuse(invocations: int = 2000, lines: int = 5000) -> bytes:
    """One page drawing one text form XObject ``invocations`` times."""
    return pdf(b"/Fm1 Do\n" * invocations, forms={"Fm1": text_ops(lines)})


def pdf_cmap_reuse(pages: int = 300, entries: int = 20_000) -> bytes:
    """Pages whose one font carries a character map of ``entries`` lines, read again for every page."""
    body = b"".join(f"<{k % 256:02X}> <{k:04X}>\n".encode() for k in range(entries))
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> "
            b"endcodespacerange " + str(entries).encode() + b" beginbfchar\n" + body + b"endbfchar endcmap end end\n")
    return pdf(text_ops(5), pages=pages, cmap=cmap)


def subtitles_markup(kind: str = "srt", size: int = 100_000) -> str:
    """One cue of ``size`` characters of markup openers that never close: quadratic for a naive regex."""
    if kind == "srt":
        return "1\n00:00:01,000 --> 00:00:04,000\n" + "<i" * (size // 2) + "\n"
    return "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n" + "<v " * (size // 3) + "\n"


def wide_csv(columns: int = 100_000) -> str:
    """A quote table whose one line has ``columns`` columns (some 300 KB)."""
    return ",".join(["quote"] + [f"c{k}" for k in range(columns - 1)]) + "\nWe lost 15 volunteers\n"


def wide_jsonl(keys: int = 100_000) -> str:
    return json.dumps({"quote": "We lost 15 volunteers", **{f"k{k}": 1 for k in range(keys)}}) + "\n"


def hostile_json(kind: str) -> str:
    """A JSON value that Python's json reads as no JSON document should be read: Infinity, a number of
    5,000 digits, or 50,000 levels of nesting."""
    return {"infinity": "Infinity", "nan": "NaN", "digits": "9" * 5000, "deep": "[" * 50_000 + "]" * 50_000,
            "float": "1e999"}[kind]


def yaml_alias_bomb(levels: int = 9) -> str:
    """The billion laughs in YAML, under a key the config knows: a few hundred bytes whose aliases expand to
    10 ** levels strings wherever the value is copied or printed."""
    anchors = ['&a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    anchors += [f"&a{k} [{', '.join([f'*a{k - 1}'] * 10)}]" for k in range(1, levels)]
    return "window:\n  size: [" + ", ".join(anchors) + "]\n"


def yaml_deep(depth: int = 20_000) -> str:
    return "window: " + "[" * depth + "]" * depth + "\n"


def qdpx(sources: list[tuple[str, str, str]], segments: list[tuple[str, int, int, int]], *,
         codes: tuple[tuple[str, str], ...] = ()) -> bytes:
    """A REFI-QDA project: sources (guid, name, text, written inline), segments (guid, the source's place in
    ``sources``, start, end), codes (guid, name)."""
    from xml.sax.saxutils import escape, quoteattr

    body = []
    for k, (guid, name, text) in enumerate(sources):
        selections = "".join(f'<PlainTextSelection guid="{g}" name="s" startPosition="{a}" endPosition="{b}"/>'
                             for g, source, a, b in segments if source == k)
        body.append(f'<TextSource guid="{guid}" name={quoteattr(name)}><PlainTextContent>{escape(text)}'
                    f"</PlainTextContent>{selections}</TextSource>")
    book = "".join(f'<Code guid="{g}" name={quoteattr(n)} isCodable="true"/>' for g, n in codes)
    xml = ('<?xml version="1.0" encoding="utf-8"?>\n<Project xmlns="urn:QDA-XML:project:1.0" name="p">'
           f"<CodeBook><Codes>{book}</Codes></CodeBook><Sources>{''.join(body)}</Sources></Project>")
    return build_zip({"project.qde": xml.encode("utf-8")})


def qdpx_many_segments(segments: int = 300_000) -> bytes:
    """A project of under 2 MB holding ``segments`` coded segments (each its own GUID) of one short source."""
    text = "Maria: We lost 15 volunteers in the first month, and the clinic closed twice.\n"
    selections = "".join(f'<PlainTextSelection guid="S{k}" name="s" startPosition="7" endPosition="{21 + k % 3}"/>'
                         for k in range(segments))
    xml = ('<?xml version="1.0" encoding="utf-8"?>\n<Project xmlns="urn:QDA-XML:project:1.0" name="p"><Sources>'
           f'<TextSource guid="A" name="interview-01.txt"><PlainTextContent>{text}</PlainTextContent>'
           f"{selections}</TextSource></Sources></Project>")
    return build_zip({"project.qde": xml.encode("utf-8")})


def xlsx_formula_quote(cached: str | None) -> bytes:
    """A quote table whose quote cell B2 is the formula =C2, its value as Excel saved it (``cached``; None:
    saved by a program that computes no values)."""
    members = plain_xlsx(0, header=("quote_id", "quote", "origin"))
    head, tail = _sheet_parts(members["xl/worksheets/sheet1.xml"])
    value = f"<v>{cached}</v>" if cached is not None else ""
    row = ('<row r="1"><c r="A1" t="inlineStr"><is><t>quote_id</t></is></c><c r="B1" t="inlineStr"><is><t>quote</t>'
           '</is></c><c r="C1" t="inlineStr"><is><t>origin</t></is></c></row>'
           '<row r="2"><c r="A2" t="inlineStr"><is><t>q1</t></is></c>'
           f'<c r="B2" t="str"><f>C2</f>{value}</c>'
           '<c r="C2" t="inlineStr"><is><t>We lost 15 volunteers in the first month</t></is></c></row>')
    members["xl/worksheets/sheet1.xml"] = head + row.encode() + tail
    return build_zip(members)


def pdf_many_pages(pages: int = 10_000) -> bytes:
    """``pages`` pages in some 1.6 MB, all drawing one short stream: each costs pypdf some 2 ms to read."""
    return pdf(text_ops(5), pages=pages)
