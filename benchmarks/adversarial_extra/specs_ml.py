"""The multilingual cases (de, es, fr, nl, pt), cut from ../shared/bench/multilingual/docs.

Rows are (document, template, reason[, debatable]) as in specs_en.py; the language is the document's prefix.
The documents are edited parliamentary records: they hold almost no fillers, so genuine_fillers is thin here
(only discourse markers that a transcript kept, see the README).
"""
import mine
from spec import Spec

ELLIPSIS_CONTENT = [
    # de
    ("de_nrsitz_2017-06-19_s186", "Drei Jahre Verhandlungen haben offensichtlich nicht ausgereicht, um da eine "
     "⟦ordentliche, mutige und beherzte|…⟧ Reform hinzukriegen.",
     "drops 'ordentliche, mutige und beherzte': the complaint is that the reform is not a bold one, the quote says "
     "there is no reform at all"),
    ("de_nrsitz_2015-10-06_s94", "Die ⟦meisten|…⟧ Eltern haben keine Geduld, Schülerinnen und Schüler haben keine "
     "Geduld mehr, und Lehrerinnen und Lehrer sind auch müde, ständig darauf hinzuweisen, dass wir eine "
     "grundlegende Schulreform in Österreich brauchen.",
     "drops the quantifier 'meisten': 'most parents' becomes 'the parents'"),
    ("de_nrsitz_2017-06-19_s186", "Es sind auch nicht mehr Minister anwesend, weil das offensichtlich kein "
     "⟦wichtiges|…⟧ Thema ist.",
     "drops 'wichtiges': 'not an important topic' becomes 'not a topic'"),
    ("de_nrsitz_2017-06-19_s186", "Herr Bundeskanzler, Sie haben sich die Stellungnahme ⟦von Teach For Austria|…⟧ "
     "zu diesem Gesetz offensichtlich nicht durchgelesen, denn die kritisieren sehr stark, was da kommt.",
     "drops whose statement it is (Teach For Austria); the following 'die' loses its referent"),
    ("de_nrsitz_2019-01-29_s59", "Mit den ⟦geringen|…⟧ Mitteln, die da zur Verfügung stehen, haben sogar die "
     "schwarzen Bürgermeister ein Problem, Kollege Rädler, dass sie die ärztliche Versorgung sicherstellen.",
     "drops 'geringen': the point is that the funds are meagre"),
    ("de_nrsitz_2019-01-29_s59", "Wir wissen nämlich auch, was da mit den Mitteln passiert, die vom Bund an die "
     "Länder gehen und ⟦eigentlich|…⟧ für die Gemeinden bestimmt sind.",
     "drops 'eigentlich': 'meant in principle for the municipalities (but not reaching them)' becomes 'meant for "
     "the municipalities'"),
    ("de_nrsitz_2019-01-29_s59", "Wir haben das Primärversorgungsgesetz auf den Weg gebracht, wir haben die "
     "⟦ersten|…⟧ Primärversorgungseinrichtungen gegründet.",
     "drops 'ersten': founding the first centres becomes founding the centres"),
    # es
    ("es_congreso_2017-11-21", "Por todo ello, proponen ustedes la aprobación de una proposición de ley para la "
     "creación de una agencia ⟦independiente|…⟧ que asuma las funciones de la Alta Inspección Educativa.",
     "drops 'independiente', the very point the speaker goes on to mock"),
    ("es_congreso_2015-08-18", "Hoy podemos demostrar, señorías, que a pesar de todas las tentaciones, de todo lo "
     "que ha sucedido, en esta crisis ha triunfado el alma europea⟦, al menos en algún aspecto.| …⟧",
     "drops the limiting 'al menos en algún aspecto': a qualified success becomes an outright one"),
    ("es_congreso_2020-02-04", "Quiero recordar que el Partido Socialista se comprometió en su programa electoral - "
     "cito - a aumentar ⟦en mayor medida|…⟧ las pensiones mínimas y las no contributivas, y Podemos también a "
     "incrementarlas.",
     "drops 'en mayor medida': the promise was to raise minimum pensions more than the others"),
    ("es_congreso_2017-11-21", "Claro, que es una competencia ⟦autonómica|…⟧ justo donde el Partido Popular ha "
     "perdido bastantes Gobiernos.",
     "drops 'autonómica': that it is a regional competence is the argument"),
    ("es_congreso_2020-02-04", "Todas esas pensiones tienen que ser subidas, como dice la Carta Social Europea, "
     "⟦como mínimo|…⟧ por encima del umbral de la pobreza.",
     "drops 'como mínimo': a floor becomes a target"),
    ("es_congreso_2015-08-18", "Ellos no tienen ninguna culpa; los que podemos tener culpa ⟦a veces|…⟧ somos los "
     "gobernantes.",
     "drops 'a veces': a sometimes-guilt becomes a general one"),
    # fr
    ("fr_an_mpt_20130120", "Votre décret a été rejeté par le conseil supérieur de l'éducation, le comité technique "
     "ministériel et par les enseignants ⟦qui sont descendus dans la rue|…⟧.",
     "drops the restrictive 'qui sont descendus dans la rue': the teachers who marched become all teachers"),
    ("fr_an_mpt_20130120", "La décision du Conseil constitutionnel compromet donc les investissements prévus en "
     "2013⟦ et non engagés, ou non encore agréés|…⟧.",
     "drops the restriction 'et non engagés, ou non encore agréés': all planned investments are said to be at risk"),
    ("fr_an_mpt_20130133", "Cet amendement reflète, une fois de plus, votre vision ⟦passéiste|…⟧ de la société.",
     "drops 'passéiste', the whole charge"),
    ("fr_an_mpt_20130128", "Après l'adoption de cette loi, plus rien ne sera pareil ⟦pour ceux qui auront à la "
     "mettre en œuvre|…⟧.",
     "drops 'pour ceux qui auront à la mettre en œuvre': a claim about the mayors becomes a claim about everyone"),
    ("fr_an_mpt_20130133", "Jamais, ⟦dans ma permanence|…⟧, je n'ai vu quelqu'un me solliciter ni me demander de "
     "réforme à ce sujet.",
     "drops 'dans ma permanence': the speaker's own surgery becomes 'never, anywhere'"),
    ("fr_an_mpt_20130128", "Je suis d'ailleurs extrêmement surpris que l'engagement ⟦du Président de la "
     "République|…⟧ soit vilipendé comme il l'a été ce matin sur les bancs du groupe socialiste.",
     "drops whose commitment it is: the President's, which is the point of the irony"),
    # nl
    ("nl_tk_20172018_70_12", "Er is geen extra douanepersoneel en men werkt nog met ⟦verouderde|…⟧ digitale "
     "systemen.",
     "drops 'verouderde': the complaint is that the systems are outdated"),
    ("nl_tk_20172018_70_4", "Zij zijn boos omdat zij nog steeds als alfahulp worden ingezet voor een ⟦schamel|…⟧ "
     "loon, vaak zonder pensioen, zonder vakantiegeld en zonder bescherming tegen ziekte of ontslag.",
     "drops 'schamel': a meagre wage becomes a wage"),
    ("nl_tk_20172018_70_4", "De gemeenten ⟦die deze constructie nog steeds inzetten|…⟧, zijn door de minister al "
     "aangeschreven dat zij deze constructie moeten beëindigen.",
     "drops the restrictive clause: the municipalities still using the scheme become all municipalities"),
    ("nl_tk_20172018_70_12", "Een ander aspect waaraan het rapport van KPMG ⟦weinig|…⟧ aandacht besteedt, is de "
     "betekenis hiervan op het terrein van duurzaamheid, de rechten van arbeiders en mvo.",
     "drops 'weinig': the report gives the aspect little attention, the quote says it gives it attention"),
    ("nl_tk_20172018_70_12", "Onze ondernemers worden ontzettend belemmerd door regelgeving ⟦uit de Europese "
     "Unie|…⟧.",
     "drops 'uit de Europese Unie': the speaker's target, EU regulation, becomes regulation in general"),
    ("nl_tk_20172018_70_4", "Gemeenten waarbij wij zicht hadden op constructies ⟦die in strijd waren met de wet|…⟧, "
     "hebben we daarop gewezen.",
     "drops 'die in strijd waren met de wet': that the schemes were unlawful is the point"),
    # pt
    ("pt_senado_cpi_reuniao07", "Então, com a evolução da comunicação, Senador, a gente tem que sempre procurar "
     "atingir o maior número de pessoas ⟦com a menor verba possível.|…⟧",
     "drops 'com a menor verba possível': the criterion was reach at the lowest cost"),
    ("pt_senado_cpi_reuniao17", "São problemas de décadas de negligência, inoperância e ⟦desvio de recursos "
     "públicos|…⟧, além do subfinanciamento do SUS.",
     "drops the list item 'desvio de recursos públicos' (misuse of public funds); the ellipsis shows the gap "
     "(a list item, hence debatable)", True),
    ("pt_senado_cpi_reuniao34", "Nós estamos ⟦apenas|…⟧ aqui cumprindo um mandamento do povo brasileiro, que quer "
     "verdadeiramente saber o que aconteceu e o que poderia ter sido feito para evitar, pelo menos, uma quantidade "
     "muito grande.",
     "drops the limiter 'apenas' ('only fulfilling a mandate')"),
    ("pt_senado_cpi_reuniao17", "Saímos do Ministério da Saúde, em março de 2021, com ⟦a garantia de|…⟧ mais de 500 "
     "milhões de doses para este ano.",
     "drops 'a garantia de': a guarantee of doses becomes doses in hand"),
    ("pt_senado_cpi_reuniao34", "Everton é o funcionário ⟦da empresa de despachante oficial contratada pelo "
     "ministério|…⟧.",
     "drops whose employee Everton is: the contractor's, not the ministry's"),
    ("pt_senado_cpi_reuniao34", "A escatologia proverbial ⟦do Presidente da República|…⟧ recende o que ocorreu no "
     "seu Governo durante a pandemia.",
     "drops whose 'escatologia' it is; the attack on the President disappears"),
]

EXCERPT_TURNED = [
    # de
    ("de_nrsitz_2015-10-06_s94", "Es hat keine Umfrage gegeben⟦, sondern es hat eine Vollbefragung gegeben.|⟧",
     "the cut leaves out 'sondern es hat eine Vollbefragung gegeben': there was no sample survey because everyone "
     "was asked; the quote says no one was"),
    ("de_nrsitz_2015-10-06_s94", "Frau Ministerin, danke für Ihre Antworten⟦, auch wenn sie nicht immer "
     "befriedigend waren und nicht immer jene Präzision hatten, die wir uns gewünscht hätten.|⟧",
     "the cut leaves out the 'auch wenn' clause that says the answers were unsatisfactory"),
    ("de_nrsitz_2017-06-19_s186", "Josef Moser hat gesagt, man könne das so nicht beschließen⟦, wenn die "
     "Bildungsdirektion vordergründig von den Landeshauptleuten geführt wird.|⟧",
     "the cut leaves out the condition: Moser objected only to governors running the directorate"),
    ("de_nrsitz_2017-06-19_s186", "⟦Herr Walser, Sie als Bildungssprecher der Grünen haben gesagt, |⟧diese Lösung "
     "sei besser als das, was wir bisher hatten.",
     "the cut leaves out the attribution to Mr Walser, which the speaker then rejects (the subjunctive 'sei' still "
     "marks reported speech, hence debatable)", True),
    ("de_nrsitz_2019-01-29_s59", "⟦Das ist euer Zugang, dass ihr glaubt, |⟧der Markt wird vieles regeln.",
     "the cut leaves out 'ihr glaubt': the speaker ascribes this belief to his opponents and attacks it"),
    ("de_nrsitz_2017-06-19_s186", "⟦Außerdem kann es nicht sein, dass die Landeshauptleute da so hineingenommen "
     "werden und alle vollkommen schmerzbefreit hier sitzen und sagen: |⟧Das war halt immer schon so.",
     "the cut leaves out that this is what others say, in a sentence that condemns them for saying it"),
    # es
    ("es_congreso_2017-11-21", "Yo pensaba que era una buena noticia que hubiesen extirpado al señor Cantó de los "
     "temas educativos⟦, pero el señor Cantó de los 'memes' hace discursos, pero lo de usted es mucho más grave, "
     "porque usted viene aquí a mentir.|⟧",
     "the cut leaves out the 'pero' clauses that turn the apparent praise into an attack"),
    ("es_congreso_2020-02-04", "Consideramos que no había que haber esperado hasta llegar a este punto, y que en "
     "todos los meses que hemos tenido se podía haber aprobado⟦, pero es un buen primer paso que va en la buena "
     "dirección.|⟧",
     "the cut leaves out 'pero es un buen primer paso': the speaker supports the decree; the quote is only "
     "criticism"),
    ("es_congreso_2020-02-04", "Estamos de acuerdo en que hay que actualizar las pensiones⟦, pero hay que empezar "
     "por actualizar los más de 3 millones de pensiones que cobran hombres y sobre todo mujeres por debajo de 650 "
     "euros al mes.|⟧",
     "the cut leaves out the 'pero' clause that sets the speaker's condition on the agreement"),
    ("es_congreso_2017-11-21", "La agencia de la alta inspección sería tan independiente⟦ que estaría adscrita al "
     "Ministerio de Educación.|⟧",
     "the cut leaves out the clause that makes the sentence ironic: the agency would not be independent at all"),
    ("es_congreso_2015-08-18", "⟦Jacques Delors dijo textualmente algo que creo que hoy tenemos que recordar: |⟧"
     "Europa necesita un alma, nadie se enamora de un mercado.",
     "the cut leaves out that the words are Jacques Delors'; the speaker endorses them, hence debatable", True),
    # fr
    ("fr_an_mpt_20130128", "Je pourrais lui demander des excuses publiques⟦, mais je ne le ferai pas.|⟧",
     "the cut leaves out 'mais je ne le ferai pas'"),
    ("fr_an_mpt_20130133", "⟦Si je décrypte votre propos, madame la garde des Sceaux, |⟧il est l'enterrement en "
     "première classe de l'initiative du rapporteur, ce qui me convient.",
     "the cut leaves out 'Si je décrypte votre propos': the speaker's reading becomes a statement of fact"),
    ("fr_an_mpt_20130128", "⟦Voilà ce que je tenais à souligner car certains pourraient penser que si nous "
     "demandons cette clause, |⟧c'est parce que nous ne voulons pas célébrer ces mariages.",
     "the cut leaves out that this is what 'some might think', which the speaker is denying"),
    ("fr_an_mpt_20130133", "⟦Reste que, si nos amendements ne sont pas adoptés, |⟧c'est l'article tel qu'il est qui "
     "sera transmis au Sénat, et c'est une perspective redoutable.",
     "the cut leaves out the condition 'si nos amendements ne sont pas adoptés'"),
    ("fr_an_mpt_20130128", "Il me paraît donc important de pouvoir plaider pour la liberté de conscience⟦, même si "
     "en l'occurrence on ne revendique pas pour soi-même la liberté d'en user.|⟧",
     "the cut leaves out the concession that the speaker does not claim the freedom for himself (the kept words "
     "are true, hence debatable)", True),
    # nl
    ("nl_tk_20172018_70_12", "Ik hoop natuurlijk toch dat de brexit zo zacht mogelijk zal verlopen⟦, maar chaos, "
     "schade en ook grensfricties zijn onvermijdelijk.|⟧",
     "the cut leaves out the 'maar' clause: chaos and damage are unavoidable"),
    ("nl_tk_20172018_70_12", "Meneer Paternotte heeft beloofd dat hij ernaar gaat kijken⟦, althans, hij heeft het "
     "niet beloofd maar ik neem aan dat hij dat een keer doet.|⟧",
     "the cut leaves out the speaker's self-correction: Paternotte did not promise"),
    ("nl_tk_20172018_70_4", "Ik ga natuurlijk naar dat voorstel kijken⟦, maar wat hier wordt gevraagd, is meer dan "
     "wat ik heb toegezegd en straalt op zijn minst meer uit dan wat ik zou willen.|⟧",
     "the cut leaves out the 'maar' clause with which the Minister advises against the motion"),
    ("nl_tk_20172018_70_4", "Kortom, een paar jaar geleden was actie hier best nog nodig⟦, maar eigenlijk inmiddels "
     "niet meer zo.|⟧",
     "the cut leaves out 'maar eigenlijk inmiddels niet meer zo': action is no longer needed"),
    ("nl_tk_20172018_70_12", "⟦Inderdaad, sommige boeren en vissers zeggen: |⟧wij hebben ook wel duidelijke "
     "voordelen.",
     "the cut leaves out that some farmers say this; the PVV speaker argues against EU membership"),
    ("nl_tk_20172018_70_12", "⟦Een goede vriend fluisterde me net toe: |⟧het eerste onderzoeksbureau dat zegt dat "
     "het allemaal wel meevalt, moet nog geopend worden.",
     "the cut leaves out that a friend said this; the speaker agrees, hence debatable", True),
    # pt
    ("pt_senado_cpi_reuniao34", "Já vimos, aqui na própria Comissão Parlamentar de Inquérito, que mais de 300 mil "
     "vidas poderiam ter sido salvas⟦ se o Governo tivesse feito a sua parte.|⟧",
     "the cut leaves out the condition that carries the accusation against the Government"),
    ("pt_senado_cpi_reuniao34", "E, observem, 69% da população atribuem a corrupção das vacinas ao Governo "
     "Federal⟦, diz a XP.|⟧",
     "the cut leaves out the source of the figure (an XP poll); the speaker relies on it, hence debatable", True),
    ("pt_senado_cpi_reuniao07", "⟦Se tivesse ocorrido qualquer interferência, |⟧eu pegaria a minha mala e voltaria "
     "para a minha empresa e para a minha família em São Paulo, Senador.",
     "the cut leaves out the counterfactual condition that denies any interference"),
    ("pt_senado_cpi_reuniao07", "⟦À medida que os protocolos de conhecimento da pandemia foram evoluindo, |⟧eu sou "
     "totalmente a favor dos protocolos, Senador, totalmente.",
     "the cut leaves out that his support grew as the protocols evolved (debatable)", True),
    ("pt_senado_cpi_reuniao17", "E eu, como Vice-Presidente, assinei, na verdade, todos os relatórios que foram "
     "apresentados naquela Comissão⟦, porque era exatamente a decisão da maioria da Comissão.|⟧",
     "the cut leaves out that she signed because the majority decided, which she says before stating her "
     "criticism"),
]

GENUINE_FILLERS = [
    ("es_congreso_2020-02-04", "⟦Pues bien, a|A⟧quí no tenemos una propuesta en línea con ese compromiso, y no hemos "
     "escuchado por parte del ministro ni siquiera una expresión de voluntad al respecto.",
     "opening discourse marker 'Pues bien,' removed"),
    ("es_congreso_2017-11-21", "(El señor Rivera Díaz muestra un ejemplar de la Constitución española de 1978) Sí, "
     "⟦bueno, |⟧entre otras cosas, porque usted es hijo del sistema",
     "discourse marker 'bueno,' removed"),
    ("fr_an_mpt_20130128", "⟦Eh bien, c|C⟧hers collègues de la majorité, vous avez une occasion unique de tenir "
     "l'engagement présidentiel !", "opening discourse marker 'Eh bien,' removed"),
    ("de_nrsitz_2019-01-29_s59", "Mit der Leistungsbilanz, die Sie haben, sich hierherzustellen und die Leistungen "
     "unserer Ministerinnen und Minister der letzten zehn Jahre so herabzuwürdigen, ⟦also |⟧dazu braucht es schon "
     "Mut.", "discourse particle 'also' removed (a resumptive 'well', not the 'that is' of a reformulation)"),
    ("pt_senado_cpi_reuniao07", "⟦Então, c|C⟧abe ao bom profissional de mídia executar o melhor plano para atingir o "
     "maior...", "opening discourse marker 'Então,' removed (it links to the previous sentence, hence debatable)",
     True),
    ("pt_senado_cpi_reuniao17", "⟦E aí, s|S⟧ó pra que fique claro, pra que não sa",
     "opening discourse marker 'E aí,' removed"),
]

OPENER_STOP = {
    "de": set("dies das es diese dieser dieses er sie ihr und aber doch also deshalb daher dann so auch ja nein denn "
              "da hier dort damit dazu außerdem trotzdem jedoch deswegen darum dabei".split()),
    "es": set("esto eso ello este esta estos estas él ella ellos ellas y pero sin así entonces también sí no "
              "además porque aquí allí por".split()),
    "fr": set("cela ça ce cette ces il elle ils elles et mais donc alors aussi oui non car ainsi puis là c'est "
              "d'ailleurs".split()),
    "nl": set("dit dat het deze die hij zij ze en maar dus daarom toen ook ja nee want daar hier dan bovendien "
              "daarnaast".split()),
    "pt": set("isso isto esse essa este esta ele ela eles elas e mas então assim também sim não porque aí aqui lá "
              "além".split()),
}
WS_REJECT = {
    ("*", "Vielmehr sollte man"): "the kept 'wäre das' may point to the hidden sentence",
    ("*", "Ich habe gebeten"): "the kept 'dieses Projekt' refers to the model named in the hidden sentences",
    ("*", "Es ist ein wirklich"): "the kept 'Das wird ... nicht erledigt' points to the hidden sentences",
    ("*", "Entweder haben wir"): "the kept 'den Herrn Bürgermeister' is introduced in the hidden sentences",
    ("*", "En primer lugar, en relación"): "the kept sentence opens with 'Desde esta perspectiva', pointing back",
    ("*", "Es un acuerdo que"): "the kept sentence opens with 'De hecho', tying it to the hidden sentences",
    ("*", "Debemos ser capaces"): "the kept 'El otro gran objetivo' needs the first one, which is hidden",
    ("*", "Je ne suis d'ailleurs"): "the kept 'donc' ties the sentence to the hidden reasoning",
    ("*", "Déjà, de nombreuses"): "the kept sentence opens with 'Or', tying it to the hidden sentences",
    ("*", "Cette loi est un moment"): "the kept 'donc' ties the sentence to the hidden reasoning",
    ("*", "Cette clause de conscience"): "the kept 'l'ont entendu' and 'il' refer to a speaker named in the hidden sentences",
    ("*", "C'est que nous sommes"): "the kept 'Parce que' answers a hidden question",
    ("*", "#8230;"): "the first kept sentence is a broken fragment",
    ("*", "Ik ben natuurlijk diep"): "joined to the Minister's undertaking, the kept grief would seem to be about it",
    ("*", "Daar hebben we inderdaad"): "both kept sentences hang on 'daar', pointing outside",
    ("*", "Want het blijkt dat"): "the kept sentences are fragments of an argument",
    ("*", "Tem peças, tem peças"): "the first kept sentence is a broken fragment",
    ("*", "Auf der einen Seite"): "the first kept sentence announces an 'other side' that the ellipsis hides",
    ("*", "Eine echte Autonomie"): "the kept 'diesen Minimalkonsens' points to the hidden sentences",
    ("*", "Ausgehend davon"): "the kept 'wäre das' may point to the hidden sentences",
    ("*", "Esperamos que a partir"): "the kept 'ese acuerdo' refers to the agreement named in the hidden sentences",
    ("*", "El plazo parece prudente"): "the kept 'Para ello' points back to the hidden sentences",
    ("*", "Desde luego el BNG"): "the kept 'Ourense, con 807 euros' answers the hidden question",
    ("*", "Sin que Grecia sea capaz"): "the kept sentence 'Debemos ser capaces de poner en valor' is incomplete without the hidden context",
    ("*", "De plus, à l'instar"): "the kept sentence opens with 'Or cette visibilité', pointing back",
    ("*", "À cause, madame Touraine"): "the first kept sentence is a fragment",
    ("*", "La personne qui a le mieux"): "the kept 'C'est que' explains something in the hidden sentences",
    ("*", "Cela suppose d'abord"): "the kept 'aussi' ties the sentence to the hidden sentences",
    ("*", "We moeten doordenken"): "the kept 'Om die reden' points to the hidden reasoning",
    ("*", "Em função disso"): "the second kept sentence is a fragment",
    ("*", "Eine echte Erklärung"): "the kept sentence opens with 'Daran', pointing back",
    ("*", "Die Analyse, die Sie uns"): "the kept 'Diesen Handlungsbedarf' is named in the hidden sentence",
    ("*", "Por tanto, señor ministro"): "the second kept sentence is incomplete without the hidden context",
    ("*", "Desde esta perspectiva este"): "the kept 'Para ello' points back to the hidden sentences",
    ("*", "Tous ceux qui l'ont"): "the kept 'Parce que' answers a hidden question",
    ("*", "Sesenta y cinco años"): "the kept 'No.' answers a hidden rhetorical question",
    ("*", "Esto tiene una doble lectura"): "the second kept sentence is a fragment",
}


def _rows(family, rows):
    out = []
    for row in rows:
        doc, template, why = row[:3]
        debatable = row[3] if len(row) > 3 else False
        out.append(Spec(family, doc, template, why, debatable, language=doc[:2]))
    return out


def specs(docs):
    out = []
    out += _rows("ellipsis_content", ELLIPSIS_CONTENT)
    out += _rows("excerpt_turned", EXCERPT_TURNED)
    out += _rows("genuine_fillers", GENUINE_FILLERS)
    for lang in ("de", "es", "fr", "nl", "pt"):
        part = {d: t for d, t in docs.items() if d.startswith(lang)}
        out += _rows("genuine_whole_sentences",
                     mine.whole_sentences(part, n=8, reject=set(WS_REJECT), opener_stop=OPENER_STOP[lang],
                                          per_doc=5, max_words=40, name=f"whole_sentences_{lang}", avoid=mine.taken(out, docs),
                                          stable=True))
    return out
