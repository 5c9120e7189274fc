"""The English cases, cut from the scale set's meeting transcripts (never from the 10 dev documents).

Each row is (document, template, reason) or (document, template, reason, debatable). The template holds one
marker ⟦old|new⟧ (see make_cases.py); the reason is the editor's, written before any tool was run.
"""
import mine
from spec import Spec

ELLIPSIS_CONTENT = [
    # an adjective that carries the claim
    ("meeting-covid_6", "Will the minister take responsibility for that report sitting on someone's desk for seven "
     "days and not being turned over to the ⟦proper|…⟧ authorities?",
     "drops 'proper': the complaint is that the report did not reach the proper authorities, not authorities at all"),
    ("meeting-education_12", "So, we were trying to give a balanced point of view, but we did commission the Wales "
     "Centre for Public Policy to do an ⟦independent|…⟧ literature review and we're honestly reporting to you what "
     "they said.",
     "drops 'independent': the speaker's point is that the review was independent, which is what makes it balanced"),
    ("meeting-covid_2", "Why is the government refusing to increase OAS and GIS benefits to lift seniors out of "
     "poverty on a ⟦permanent|…⟧ basis?",
     "drops 'permanent': the question is about a permanent increase; without it the government is said to refuse "
     "any increase"),
    ("meeting-education_23", "So, for those children who do find themselves in education other than at school, we "
     "are providing ⟦additional|…⟧ support that previously was not available.",
     "drops 'additional': the Minister says extra support is given; the quote leaves what kind of support unsaid"),
    ("meeting-covid_5", "Faced with minimal health care capacity, ⟦remote indigenous|…⟧ communities in my riding "
     "are taking matters into their own hands.",
     "drops 'remote indigenous': the claim is about remote indigenous communities, the quote widens it to every "
     "community of the riding"),
    # a possessor
    ("meeting-covid_7", "Every dollar that's taken comes out of the ⟦taxpayers'|…⟧ pockets.",
     "drops the possessor 'taxpayers'': whose pockets the money comes out of is the whole point of the sentence"),
    ("meeting-covid_1", "That is the amount of ⟦taxpayers'|…⟧ money that the Liberal Party is putting into its "
     "pockets.",
     "drops the possessor 'taxpayers'': the charge is that public money goes to the party"),
    ("meeting-education_16", "Well, the first thing to say is my understanding of the development of the bac is "
     "that ⟦employers'|…⟧ voices were reflected and they were part of the process that drew up the qualification "
     "in the first place.",
     "drops the possessor 'employers'': which voices were reflected is left open, the claim is about employers"),
    ("meeting-covid_7", "Does the Minister of Infrastructure agree with the bank's board, which is being so "
     "generous to its president with ⟦Canadians'|…⟧ money?",
     "drops the possessor 'Canadians'': the question is that the board is generous with public money"),
    ("meeting-education_9", "And there were many responses that were concerned about and emphasised the need to "
     "respect ⟦parents'|…⟧ views.",
     "drops the possessor 'parents'': the responses asked for respect of parents' views in particular"),
    ("meeting-covid_5", "It's not that the programs aren't working; it's that they aren't generous enough ⟦in "
     "farmers' eyes.|…⟧",
     "drops 'in farmers' eyes': the Minister reports the farmers' view, the quote makes her concede the programs "
     "are not generous enough"),
    # a temporal or conditional connective
    ("meeting-covid_4", "The petitioners are asking that the Government of Canada not provide any financial "
     "assistance to Canadian airlines ⟦until|…⟧ they promptly provide full refunds for flights that were "
     "cancelled due to COVID-19.",
     "drops 'until': the condition goes, and the quote reads as a refusal of any assistance to airlines that "
     "refund"),
    ("meeting-education_7", "But, of course, we were not able to fully advertise the childcare offer ⟦until|…⟧ it "
     "was available in all the local authorities, which was last April.",
     "drops 'until': the time limit on 'not able to advertise' is lost; the quote reads as not advertised although "
     "available"),
    ("meeting-education_21", "Of course, they're not available ⟦until|…⟧ the young people have taken those exams "
     "for the very first time.",
     "drops 'until': 'not available until the exams are taken' becomes 'not available; the young people have "
     "taken the exams'"),
    ("meeting-education_15", "Now, we can't quantify an absolute amount of resource that will be needed to deliver "
     "⟦until|…⟧ we know exactly what's going to come out of the consultation and what actions we might want to "
     "deliver to a greater degree in Wales.",
     "drops 'until': the quote now says they cannot quantify the resource although they know the consultation's "
     "outcome"),
    # a restrictive modifier or clause
    ("meeting-covid_5", "Many of the businesses ⟦in my riding|…⟧ are at 27% or 29%.",
     "drops the restrictive 'in my riding': a claim about local businesses becomes a claim about businesses in "
     "general"),
    ("meeting-covid_10", "Cattle producers ⟦in my region|…⟧ are spending more than $60,000 a day to keep their "
     "livestock fed while they wait for processing plants to reopen.",
     "drops the restrictive 'in my region': the $60,000 a day is said of all cattle producers"),
    ("meeting-education_7", "Well, having established that, we have fairly recent research here that a third of "
     "children ⟦living in poverty|…⟧ in Wales are already falling behind at the age of five—that suggests that "
     "two thirds of them aren't, but it's still a very worrying statistic.",
     "drops the restrictive 'living in poverty': the third is of poor children, not of all children in Wales"),
    ("meeting-education_17", "But we know that most employers ⟦in Wales|…⟧ are small or microbusinesses.",
     "drops the restrictive 'in Wales': the statistic is about Welsh employers"),
    ("meeting-covid_2", "Mr. Chair, agricultural societies ⟦across rural Ontario|…⟧ are making the difficult "
     "decision to cancel their fall fairs this year.",
     "drops 'across rural Ontario': the cancellations are said of every agricultural society"),
    ("meeting-education_21", "I understand that, but you also understand that someone who doesn't have the "
     "resources ⟦that they feel|…⟧ are best suited to them face some element of a greater disadvantage than "
     "others for whom, perhaps, textbooks are less important.",
     "drops 'that they feel': what the students feel suits them becomes what does suit them"),
    ("meeting-education_5", "One of the reasons ⟦that I suspect|…⟧ we have ended up with poor science scores is "
     "because of the previous policy around science entries and science qualifications.",
     "drops the hedge 'that I suspect': a suspicion becomes a stated cause (a hedge, hence debatable)", True),
    # the head of a noun phrase or an object
    ("meeting-education_21", "So, with that sort of background, would you accept then that some students have been "
     "negatively affected by the ⟦lack of|…⟧ suitable support materials for general qualifications?",
     "drops 'lack of': students harmed by the lack of materials become students harmed by the materials"),
    ("meeting-covid_7", "How many beef operations are facing the real danger of going out of business because of "
     "this pandemic and the ⟦lack of|…⟧ support by the agriculture minister and this Liberal government?",
     "drops 'lack of': the minister's lack of support becomes the minister's support, the opposite charge"),
    ("meeting-education_3", "Well, it's difficult to say directly, but we have inspected nine authorities and two of "
     "those are in that area, so, the ⟦lack of|…⟧ support at that level, as Jassa was saying, may be the reason "
     "why those authorities are suffering difficulties.",
     "drops 'lack of': the lack of support becomes the support as the cause of the difficulties"),
    ("meeting-covid_8", "Indigenous leaders have expressed a ⟦lack of|…⟧ confidence in the RCMP commissioner's "
     "ability to tackle full-scale systemic racism, but the Prime Minister has expressed his confidence in the "
     "commissioner.",
     "drops 'lack of': the leaders' lack of confidence becomes confidence, which also kills the contrast"),
    ("meeting-education_2", "In particular, have you got any idea about timescales now for setting out what the "
     "approach will be to handling the ⟦lack of|…⟧ summer exams?",
     "drops 'lack of': the exams were cancelled; the quote asks about handling the summer exams"),
    # a list item
    ("meeting-covid_4", "Last Tuesday I was proud to announce our emergency processing fund for a total of $77.5 "
     "million, ⟦$50 million for the surplus food program|…⟧ and $125 million through AgriRecovery to support our "
     "beef and pork producers.",
     "drops one of three announced measures with its amount; the ellipsis shows a gap, but the announcement "
     "is reported short of a $50 million program", True),
    ("meeting-covid_6", "Mr. Chair, the United States, Australia, ⟦India|…⟧, Japan, New Zealand, South Korea and "
     "Vietnam have created an economic prosperity group to diversify some of their key supply chains away from "
     "China.",
     "drops 'India' from the list of members; the ellipsis shows a gap, but the group's membership is misreported",
     True),
    ("meeting-covid_8", "Well, the truth is that Canada's farmers, ⟦ranchers|…⟧ and processors have for years "
     "demonstrated their ability to deliver meaningful reductions in emissions and to safeguard the environment "
     "through the adoption of new technologies, education and innovative management practices, but the "
     "government ignores these efforts.",
     "drops 'ranchers' from the list of producers credited; the ellipsis shows a gap (a list item, debatable)",
     True),
]

EXCERPT_TURNED = [
    # a preceding "I don't think" / "I don't believe" cut away
    ("meeting-TS3011c", "⟦So I don't think |⟧we should use the dynamo thing.",
     "the cut leaves out 'I don't think': the speaker argues against the dynamo, the quote for it"),
    ("meeting-education_13", "⟦So, yes, it has the potential to serve as a barrier, but in practice, I don't think "
     "|⟧it would be a barrier.",
     "the cut leaves out 'I don't think': the witness denies it would be a barrier, the quote asserts it"),
    ("meeting-education_6", "⟦So, I don't think |⟧we should make it conditional on those guidelines being decided.",
     "the cut leaves out 'I don't think': the Deputy Minister rejects the condition, the quote proposes it"),
    ("meeting-Buw001", "⟦I don't think |⟧we should have rules of participation, but I think we should try to get a "
     "variety of meetings.",
     "the cut leaves out 'I don't think': the professor is against rules of participation"),
    ("meeting-education_6", "⟦I don't believe that |⟧there is a need for an indefinite campaign, as is outlined in "
     "1A.",
     "the cut leaves out 'I don't believe that': the Member speaks against an indefinite campaign"),
    ("meeting-covid_4", "⟦I do not believe that |⟧he has been consulting with front-line officers.",
     "the cut leaves out 'I do not believe that': the Member disputes that the minister consulted officers"),
    ("meeting-ES2002c", "⟦I could check back for you, but I don't think |⟧you can actually use them in a "
     "combination.",
     "the cut leaves out 'I don't think': the designer doubts the parts can be combined"),
    ("meeting-Bmr015", "⟦And I don't think |⟧we have so many meetings that that's a big deal just to change the "
     "names.",
     "the cut leaves out 'I don't think': renaming is said to be no big deal, the quote says it is"),
    # a following but / though / if / unless clause cut away
    ("meeting-education_13", "It's a potential barrier⟦, but I don't think it is a barrier.|⟧",
     "the cut leaves out 'but I don't think it is a barrier': the witness concedes only a potential barrier and "
     "denies a real one (the kept words are literally true, hence debatable)", True),
    ("meeting-education_5", "Estyn can tick the box to say your grades have got better⟦, but we haven't handled "
     "the serious underpinning issues—leadership, teaching and learning, and bringing those together.|⟧",
     "the cut leaves out the 'but' clause that says the improvement is superficial; the kept words read as "
     "progress (their tone already hints at the criticism, hence debatable)", True),
    ("meeting-education_14", "I can think of better ways⟦, but I don't think this is it.|⟧",
     "the cut leaves out 'but I don't think this is it': the witness denies the Bill is a way of getting money in; "
     "the quote makes her criticise it"),
    ("meeting-education_6", "So, as I said, I think these are important points that you have raised⟦, but I don't "
     "think they are appropriate.|⟧",
     "the cut leaves out 'but I don't think they are appropriate': the Deputy Minister rejects the amendments "
     "the quote makes her praise"),
    ("meeting-Bro012", "Uh then when we apply mean normalization it looks like the second figure⟦, though it is "
     "not.|⟧",
     "the cut leaves out 'though it is not': the speaker says the figures only look alike"),
    ("meeting-covid_2", "Producers are telling me that they would use the western livestock price insurance "
     "program⟦ if the premiums were affordable, which they are not.|⟧",
     "the cut leaves out the condition 'if the premiums were affordable, which they are not': producers do not "
     "use the program"),
    ("meeting-education_2", "As a Welsh Government, we will take every step to provide continuity of funding⟦, if "
     "at all possible.|⟧",
     "the cut leaves out 'if at all possible': a conditional promise becomes unconditional (a hedge, hence "
     "debatable)", True),
    ("meeting-education_6", "Therefore, I would encourage you not to move your amendments⟦ if you have the "
     "confirmation that you want to hear this morning from the Minister regarding these issues.|⟧",
     "the cut leaves out the condition: the Member advises withdrawing the amendments only if the Minister "
     "gives the confirmation"),
    ("meeting-education_20", "It's not a relationship where we would advise and direct, but it is a relationship "
     "where we would question the scenarios⟦ if we consider from our experience that we would have expected other "
     "scenarios to have been tested.|⟧",
     "the cut leaves out the condition on when the funding council questions a university's scenarios (a "
     "careful reader may find the kept words a fair summary, hence debatable)", True),
    ("meeting-Bro003", "so, I mean, clearly, there -- there's no way we can even begin to do an any significant "
     "amount here⟦ unless we use multiple machines.|⟧",
     "the cut leaves out 'unless we use multiple machines': an impossibility with a way out becomes absolute"),
    # a preceding attribution cut away
    ("meeting-education_7", "⟦But the committee was told by the previous Minister that |⟧HMRC wouldn't have any "
     "problem at all with delivering according to the Welsh language standards.",
     "the cut leaves out the attribution to the previous Minister, which the Member is using against the "
     "Government; the quote makes her assert it"),
    ("meeting-covid_2", "⟦The Prime Minister announced the business bailout, and in that proposal, he said that "
     "|⟧there would be limits on CEO bonuses and share buybacks.",
     "the cut leaves out 'he said that': the Member reports the Prime Minister's promise in order to attack it"),
    ("meeting-covid_5", "⟦Mr. Chair, five years ago when Parliament passed Bill C-14, then justice minister Jody "
     "Wilson-Raybould said that |⟧it represented a finely tuned balance between access and safeguards.",
     "the cut leaves out the attribution to the former justice minister; the Member reports her claim"),
    ("meeting-covid_6", "⟦He said that |⟧this regime ensures the care our seniors get is top quality.",
     "the cut leaves out 'He said that': the Member quotes the Prime Minister's 2017 claim in order to refute it"),
    ("meeting-covid_2", "⟦The minister has claimed that |⟧our balance sheet is strong.",
     "the cut leaves out 'The minister has claimed that': the Member goes on to dispute the claim"),
    ("meeting-covid_4", "⟦The Minister of Employment said that |⟧she is looking into this gap.",
     "the cut leaves out the attribution; the Member reports it to say nothing has been done"),
    ("meeting-covid_1", "⟦However, Mr.Chair, the minister has told us that |⟧she is ready to transfer the funds, "
     "whether or not the provinces add any to the program.",
     "the cut leaves out 'the minister has told us that': the Member reports a promise he says is unkept"),
    ("meeting-covid_2", "⟦Mr. Chair, to the Minister of Agriculture, Dr. Charlebois said that |⟧we are on the "
     "precipice of losing 15% of our farms and that 30,000 farm families are at risk of bankruptcy.",
     "the cut leaves out the attribution to Dr. Charlebois; the Member relies on it, so he may be taken to "
     "endorse it (debatable)", True),
    # a self-correction cut away
    ("meeting-Bro023", "Yeah, so far I've seen sixty - seven⟦ -- I mean, no, I haven't seen s like sixty - seven "
     "percent.|⟧",
     "the cut leaves out the self-correction 'I mean, no, I haven't seen ... sixty-seven percent': the speaker "
     "retracts the figure the quote reports"),
    ("meeting-IS1000d", "So the L_C_D_ display is is three Francs⟦, sorry three Euros, by itself.|⟧",
     "the cut leaves out the self-correction 'sorry three Euros': the price is in Euros"),
    ("meeting-ES2012a", "especially if we try to sell, what two million of them.⟦ Oh sorry, four million of 'em|⟧",
     "the cut leaves out the self-correction 'Oh sorry, four million': the sales target is four million"),
    ("meeting-Bmr016", "because we do have digits training data that we have from uh from OGI.⟦ I'm sorry, "
     "digits -- numbers training|⟧",
     "the cut leaves out the self-correction 'I'm sorry, digits -- numbers training': the data are numbers, not "
     "digits (a fine distinction, hence debatable)", True),
]

BRACKET_CONTENT = [
    # an evaluative word put in
    ("meeting-covid_1", "What is the value of the ⟦|[secret] ⟧contract with Deloitte?",
     "the bracket puts in 'secret', an accusation the Member did not make"),
    ("meeting-covid_2", "We think that we've come up with a ⟦|[flawed] ⟧program that provides advantages for the "
     "landlords and advantages for the tenants, and we will be announcing details that will include how mortgages "
     "can be put in place for those landlords who don't currently have them.",
     "the bracket puts in 'flawed', a judgement the Minister, who is defending the program, did not make"),
    ("meeting-covid_2", "Mr.Chair, I'm not sure that I fully understood the ⟦|[so-called] ⟧plan.",
     "the bracket puts in the sneer 'so-called', which the Member did not say"),
    ("meeting-education_19", "It's a commitment that was an element of the ⟦|[backroom] ⟧agreement between myself "
     "and the First Minister that brought me into the administration, and we have been very clear with HEFCW about "
     "our expectations and what the implementation of Diamond will mean for grant going to HEFCW.",
     "the bracket puts in 'backroom', an insinuation the Minister did not make"),
    ("meeting-covid_8", "At the same time, we will examine his ⟦|[reckless] ⟧bill with all of the necessary "
     "attention to make sure it's given full consideration.",
     "the bracket puts in 'reckless', a judgement the Minister withheld"),
    ("meeting-covid_9", "The Bloc is open to the ⟦|[radical] ⟧idea, but we shouldn't wait for such an inquiry to "
     "be recommended to take action.",
     "the bracket puts in 'radical', a characterisation the Member did not make"),
    ("meeting-covid_7", "As the member is well aware, this program is a ⟦|[generous] ⟧tax-break program.",
     "the bracket puts in 'generous', praise the Minister did not give"),
    # a bracketed referent that names the wrong antecedent, whose words occur just before
    ("meeting-covid_6", "⟦She|[Suchi]⟧ is a local designer. When the pandemic broke, she saw the need for "
     "protective barriers for small shops in Parkdale, so she set about collecting donations.",
     "'She' is Rachelle LeBlanc; the bracket names the Member's wife Suchi, mentioned just before"),
    ("meeting-education_5", "⟦He|[Steve]⟧ is there to give me advice on the middle tier, and to give me advice on "
     "what he thinks Welsh Government needs to do.",
     "'He' is Dylan; the bracket names Steve, mentioned in the sentence before"),
    ("meeting-covid_1", "⟦He|[The father]⟧ was murdered by a retired policeman and his son in their pickup truck, "
     "in February.",
     "'He' is the young man who was jogging; the bracket names the father, one of the killers, mentioned just "
     "before"),
    ("meeting-covid_2", "⟦They|[Their customers]⟧ are well aware of the issues arising from this government's "
     "reliance on Chinese manufacturing rather than building capacity here.",
     "'They' are the businesses; the bracket names their customers, mentioned at the end of the sentence before"),
    # a bracketed noun put for a determiner
    ("meeting-covid_2", "⟦This|[The Quebec]⟧ program was necessary, particularly because the number of students "
     "who won't be able to get back their jobs from last year is much higher than the number of jobs that might "
     "be available to these young people.",
     "'This program' is the federal Canada emergency student benefit; the bracket makes it a Quebec program "
     "('Quebec' occurs just before)"),
    ("meeting-covid_6", "⟦This|[The managers']⟧ report was given to me on the 21st.",
     "'This report' is the Armed Forces members' report; the bracket makes it the managers' report ('managers' "
     "occurs just before)"),
    ("meeting-education_16", "⟦That|[The evaluation]⟧ process is a really important process, so there is the "
     "design group, but working alongside the design group, who they are testing the messages and testing their "
     "thoughts with, is a stakeholder group, and there is also a practitioners group.",
     "'That process' is the design group's review; the bracket makes it the evaluation (mentioned just before), "
     "which the Minister was warning against making onerous"),
    ("meeting-education_9", "⟦That|[The simplification]⟧ process has already started, but considering that this is "
     "a massive change, I have been hugely encouraged, actually, by the high levels of engagement and support for "
     "the broad principles of what we're doing.",
     "'That process' is reflecting on the feedback; the bracket says the curriculum is being simplified "
     "('simplified' occurs just before as one of the views heard)"),
    # "[he]" for "I", with another person named just before
    ("meeting-education_12", "⟦I|[He]⟧ got the sense you thought this could just be slipped in as a paragraph in "
     "existing guidance, but I'm not clear about what happens to a teacher who is told by a child that they've "
     "been smacked, and they decide that they're not going to report that—will they get into trouble over that?",
     "the speaker's 'I' becomes '[He]', which a reader takes to be Hefin David, named just before"),
    ("meeting-education_22", "⟦I|[He]⟧ got the impression that if there is a need to look at different rates because "
     "of the higher-end areas, you may therefore have different sets of rates and not a universal rate.",
     "the speaker's 'I' becomes '[He]', which a reader takes to be Mark Reckless, named just before"),
    ("meeting-covid_8", "⟦I|[He]⟧ asked him a question on whether any of them is being or ever has been used in the "
     "Canadian Armed Forces.",
     "the speaker's 'I' becomes '[He]', which a reader takes to be Mr. Blair, named just before"),
    ("meeting-covid_5", "⟦I|[She]⟧ was talking to Heather last night, who also owns a business in Tofino, Basic "
     "Goodness Pizzeria, with her partner Marco.",
     "the speaker's 'I' becomes '[She]', which a reader takes to be Robyn, named just before"),
]

# Homoglyphs are written as escapes so that the file shows them: \u0430 \u0435 \u043e are Cyrillic a e o,
# \u03bf is Greek omicron.
WORD_RARE = [
    # a real word, however rare, one letter away from the source word
    ("meeting-covid_4", "The Province of Nova Scotia ⟦invited|indited⟧ multinational companies to scope out and "
     "develop expansive open-net salmon farming operations.",
     "'invited' -> 'indited' (to put into words; rare but a dictionary word): not a slip to repair"),
    ("meeting-covid_4", "Our government is taking a ⟦cautious|captious⟧ approach, and we're working effectively.",
     "'cautious' -> 'captious' (fault-finding; rare but a dictionary word)"),
    ("meeting-covid_2", "Will the Minister of Finance ⟦amend|emend⟧ the eligibility for the wage subsidy program so "
     "that Chez Angela and similar businesses can apply?",
     "'amend' -> 'emend' (to correct a text; rare but a dictionary word): a different act"),
    ("meeting-education_10", "This is quite distant from Government—unlike other institutions, where you can "
     "⟦prescribe|proscribe⟧ some of these approaches.",
     "'prescribe' -> 'proscribe' (to forbid): the opposite act"),
    ("meeting-education_1", "I have made very clear in my statement that that is not ⟦imminent|immanent⟧.",
     "'imminent' -> 'immanent' (inherent; rare but a dictionary word)"),
    ("meeting-education_1", "Yes, my last question is really about the potential for the attainment gap between "
     "disadvantaged pupils and their more ⟦affluent|effluent⟧ peers.",
     "'affluent' -> 'effluent' (outflowing; a dictionary word)"),
    ("meeting-IS1009c", "Uh and a as energy source we offer a basic battery, a more ⟦ingenious|ingenuous⟧ uh hard "
     "dynamo, um a kinetic provision of energy, more than what is that you shake casually to provide energy.",
     "'ingenious' -> 'ingenuous' (naive): a different word, not a spelling of the same one"),
    ("meeting-education_3", "The primary sector, the special sector, post-16—there are many sectors that are doing "
     "well, and I think a story that's particularly positive this year is that we have seen ⟦pupil|pupal⟧ referral "
     "units improving.",
     "'pupil' -> 'pupal' (of a pupa; rare but a dictionary word)"),
    ("meeting-education_4", "The basic ⟦numeracy|numerary⟧, literacy and well-being stuff is taking place, but there "
     "is discrepancy of provision, even in local authority commissioned EOTAS provision.",
     "'numeracy' -> 'numerary' (of number, or a permanent member; rare but a dictionary word)"),
    ("meeting-ES2011c", "I think the batteries would have to go right under the ⟦plastic|plastid⟧ case.",
     "'plastic' -> 'plastid' (a cell organelle; rare but a dictionary word)"),
    ("meeting-TS3011b", "Especially elder people uh don't like ⟦voice|voile⟧ recognition.",
     "'voice' -> 'voile' (a thin fabric; rare but a dictionary word)"),
    ("meeting-TS3004b", "Basically if the ⟦battery|buttery⟧ is low, it won't work.",
     "'battery' -> 'buttery' (a pantry, or like butter; a dictionary word)"),
    # a homoglyph that makes the word read as another word
    ("meeting-covid_6", "We ⟦know|kn\u0435w⟧ that there are 39 members of the Canadian Armed Forces currently "
     "infected with COVID-19.",
     "Cyrillic e in 'know' makes it read 'knew': the claim moves to the past, and mixed scripts are never benign"),
    ("meeting-education_14", "And obviously, we ⟦want|w\u0435nt⟧ to focus our energy and our attention on those "
     "children.",
     "Cyrillic e makes 'want' read 'went': an intention becomes a past act"),
    ("meeting-education_4", "We ⟦get|g\u03bft⟧ these things from quite a broad perspective, and we don't actually see "
     "the extent of the reasons why.",
     "Greek omicron makes 'get' read 'got': a habit becomes a past event"),
    ("meeting-covid_6", "I ⟦come|c\u0430me⟧ from a riding where a lot of people make their living from the tourism "
     "industry.",
     "Cyrillic a makes 'come' read 'came': the Member's riding becomes one she came from"),
    # a homoglyph that reproduces the same word: mixed scripts are never benign
    ("meeting-covid_7", "These women have lost their titles, and the decisions were made with the hereditary chiefs "
     "and ⟦not|n\u043et⟧ the elected chiefs.",
     "Cyrillic o inside 'not': the word looks the same but is not the source's text (mixed scripts are never "
     "benign)"),
    ("meeting-covid_10", "The CERB is there for working ⟦seniors|s\u0435niors⟧ who have lost income as a result of "
     "COVID-19.",
     "Cyrillic e inside 'seniors': the word looks the same but is not the source's text (mixed scripts are never "
     "benign)"),
    ("meeting-education_13", "Can I give you an ⟦example|ex\u0430mple⟧, which might illustrate the way in which "
     "things could be different?",
     "Cyrillic a inside 'example': the word looks the same but is not the source's text (mixed scripts are never "
     "benign)"),
    ("meeting-covid_10", "Our priority was to implement income replacement benefits for workers who have lost their "
     "⟦jobs|j\u03bfbs⟧ because of COVID-19.",
     "Greek omicron inside 'jobs': the word looks the same but is not the source's text (mixed scripts are never "
     "benign)"),
    # a case change that makes another word
    ("meeting-covid_7", "This annual celebration is a time for ⟦us|US⟧ to recognize the contributions and experiences "
     "of Canada's tourism industry.",
     "'us' -> 'US': the Member's 'us' (Canadians) becomes the United States"),
    ("meeting-covid_7", "We don't have a BSE exemption that would allow ⟦us|US⟧ to use American processors, and "
     "there's been no incentive to create additional capacity to process.",
     "'us' -> 'US': the exemption would let the United States, not Canadian producers, use American processors"),
    ("meeting-covid_7", "One of the strengths of Canada is that we have non-partisan government institutions, and "
     "they serve ⟦us|US⟧ extremely well.",
     "'us' -> 'US': Canada's Crown corporations are said to serve the United States"),
    ("meeting-covid_5", "Mr.Chair, while the minister is calling for a ⟦green|Green⟧ recovery of the country's "
     "economy, public transit is at risk.",
     "'green' -> 'Green': an environmental recovery becomes the Green Party's"),
    ("meeting-covid_2", "To be ⟦frank|Frank⟧, the Canada emergency commercial rent assistance program is a flop.",
     "'frank' -> 'Frank': the adjective becomes a name (a reader repairs it, hence debatable)", True),
]

SPEECH_ACT = [
    # a question quoted as a statement
    ("meeting-Bro011", "So they're training up nets to try to recognize these acoustic features⟦?|.⟧",
     "'?' -> '.': the speaker asks whether they train nets; the quote asserts it"),
    ("meeting-Bro026", "This is one of those things that will be debated afterwards⟦?|.⟧",
     "'?' -> '.': a question about what will be debated becomes a statement"),
    ("meeting-Bmr015", "They have lots of experience with breathing⟦?|.⟧",
     "'?' -> '.': a surprised question becomes an assertion"),
    ("meeting-education_21", "So, it's the scale of the challenge and the volume of the work⟦?|.⟧",
     "'?' -> '.': the Member checks his understanding; the quote makes him assert it"),
    ("meeting-Bro024", "So it's improvement over the baseline mel cepstrum⟦?|.⟧",
     "'?' -> '.': a question about the result becomes a claim about it"),
    ("meeting-Bro016", "That's -- that's, uh -- that's permitted⟦?|.⟧",
     "'?' -> '.': the professor asks whether it is permitted; the quote says it is"),
    ("meeting-Bro017", "You're talking about the standard deviation⟦?|.⟧",
     "'?' -> '.': a request for clarification becomes an assertion"),
    ("meeting-Bmr003", "So that's where you came up with the f the ten X number⟦?|.⟧",
     "'?' -> '.': a question about where the number came from becomes a statement of it"),
    ("meeting-Bmr024", "You mean there're more than ten⟦?|.⟧",
     "'?' -> '.': a question becomes a claim that there are more than ten"),
    ("meeting-Bro028", "You didn't get any answer from Joe⟦?|.⟧",
     "'?' -> '.': the speaker asks; the quote asserts that no answer came"),
    ("meeting-IS1007b", "So we should have specific T_V_⟦?|.⟧",
     "'?' -> '.': a question becomes a proposal"),
    ("meeting-IS1000b", "You think it's possible for the twelve Euro fifty⟦?|.⟧",
     "'?' -> '.': the manager asks; the quote states the designer's opinion"),
    # a statement quoted as a question
    ("meeting-covid_3", "They are making a real difference in people's lives⟦.|?⟧",
     "'.' -> '?': the Minister's claim becomes a doubtful question"),
    ("meeting-education_14", "I think that our children deserve the best legislation⟦.|?⟧",
     "'.' -> '?': a conviction becomes a question"),
    ("meeting-covid_1", "They went into debt and didn't have anything to show for it⟦.|?⟧",
     "'.' -> '?': the Prime Minister's charge becomes a question"),
    ("meeting-covid_5", "This allegation is a violation of my privilege⟦.|?⟧",
     "'.' -> '?': the Member's point of privilege becomes a question"),
    ("meeting-education_12", "I would have thought it would be minimal⟦.|?⟧",
     "'.' -> '?': the Deputy Minister's estimate becomes a question"),
    ("meeting-education_8", "I think the concept of a fee and access plan is an important concept⟦.|?⟧",
     "'.' -> '?': the Minister's view becomes a question"),
]

TURNS = [
    # an ellipsis joins the last sentence of one speaker's turn to the first of the next speaker's
    ("meeting-covid_3", "We believe in continuing to invest in the Canada summer jobs program.⟦\n\nHon. Steven "
     "Blaney: | … ⟧The workers, the young people and the employers have been waiting for weeks.",
     "the ellipsis hides a change of speaker: the opposition Member's complaint is put in the Minister's mouth"),
    ("meeting-education_13", "And do you think that that would be an isolated incident?⟦\n\nBarry Hughes: | … ⟧Yes, "
     "truly, I believe, an isolated incident.",
     "the ellipsis joins the Member's question to the witness's answer as if one person asked and answered"),
    ("meeting-covid_5", "These businesses need help right now.⟦\n\nHon. Mary Ng: | … ⟧I agree with the "
     "honourable member.",
     "the ellipsis joins the Member's demand to the Minister's reply as one utterance"),
    ("meeting-covid_6", "Have any of our orders been cancelled by the nationalization of these manufacturers in "
     "China?⟦\n\nHon. Anita Anand: | … ⟧We have an aide in place in China.",
     "the ellipsis joins the Member's question to the Minister's answer as one speaker's words"),
    ("meeting-covid_4", "Well over seven million Canadians have access to CERB, and we will continue to work with "
     "them⟦\n\nMs. Jenny Kwan: | … ⟧That does not replace spousal support and child maintenance, Prime Minister.",
     "the ellipsis joins the Prime Minister's claim to the Member's rebuttal, so he seems to rebut himself"),
    ("meeting-education_12", "You're asking the Welsh public to take a bit of a chance on this.⟦\n\nJulie Morgan AM: "
     "| … ⟧I think we have, as far as possible, looked at international evidence where this legislation has been "
     "introduced.",
     "the ellipsis joins the Member's challenge to the Deputy Minister's answer as one utterance"),
    ("meeting-covid_5", "We will announce the approval of projects because it's very important for our economy, "
     "our communities and creating good jobs.⟦\n\nMr. Luc Berthold: | … ⟧Does the minister understand that she "
     "hasn't told us how many projects are still pending?",
     "the ellipsis puts the Member's attack on the Minister into the Minister's own answer"),
    ("meeting-education_3", "That's not something we inspect as such.⟦\n\nDawn Bowden AM: | … ⟧No, no, but there "
     "should be evidence around that.",
     "the ellipsis joins the inspector's reply to the Member's objection as one speaker's words"),
    ("meeting-covid_1", "Will the government commit today to providing real assistance to Canada's struggling "
     "airports?⟦\n\nHon. Bill Blair: | … ⟧The Minister of Transport has been working very closely with airports, "
     "large and small, right across the country.",
     "the ellipsis joins the Member's question to a Minister's answer as one utterance"),
    ("meeting-education_17", "So, yes, there are certainly instances of that happening, there's no doubt.⟦\n\nEd "
     "Evans: | … ⟧We certainly see it, as employers.",
     "the ellipsis joins two witnesses: Dafydd Evans is made to speak 'as employers', which is Ed Evans' voice"),
    ("meeting-IS1002b", "But what I'm saying is right now we're middle market.⟦\n\nProject Manager: | … ⟧Is "
     "twenty-five Euros a mid-market price for a remote?",
     "the ellipsis joins the marketing expert's claim to the manager's question as one utterance"),
    # another speaker's label inside the span dropped as if it were markup
    ("meeting-education_20", "So the overhead funding is still an issue in England, and in other places.⟦\n\nBethan "
     "Owen: | ⟧There is an increased contribution, and I think it's an element that was increased this year to "
     "acknowledge that.",
     "the label 'Bethan Owen:' is dropped as if it were markup: the Member's remark and the witness's answer "
     "become one speaker's words"),
    ("meeting-education_9", "And they said it was disappointing that a plan was not in place at the start of the "
     "consultation period.⟦\n\nKirsty Williams AM: | ⟧Well, we undertook a specific programme of engagement with "
     "children and young people, as I said at the beginning.",
     "the Minister's label is dropped: her defence is attributed to the Member who raised the criticism"),
    ("meeting-covid_8", "Why is Bill Morneau unable to table an economic update for all Canadians?⟦\n\nHon. Mona "
     "Fortier: | ⟧Let me repeat for my hon. colleague that we are going through extraordinarily uncertain times.",
     "the Minister's label is dropped: question and answer become one speaker's words"),
    ("meeting-covid_5", "Is the minister aware of this, and are they trying to revise the CECRA program?⟦\n\nHon. "
     "Mona Fortier: | ⟧As you know, we've been working with provinces and territories to present that program.",
     "the Minister's label is dropped: the Member seems to answer his own question"),
    ("meeting-education_4", "So, the developments are quite positive currently, but there is work to do, I "
     "agree.⟦\n\nSian Gwenllian AM: | ⟧In terms of the how curriculum is at present, are you happy that it's being "
     "delivered?",
     "the Member's label is dropped: the witness seems to ask the next question"),
    ("meeting-education_20", "It's not Brexit-specific, although, no doubt, it may—.⟦\n\nDr David Blaney: | ⟧I think "
     "that's fair to say, yes.",
     "the witness's label is dropped: the Member seems to agree with himself"),
    ("meeting-covid_2", "in the most recent year, 2018-19, the total spend was $92.4 million for the Auditor "
     "General, showing a 7.7% increase.⟦\n\nHon. Pierre Poilievre: | ⟧What are the total liabilities of the "
     "Government of Canada?",
     "the Member's label is dropped: the Minister seems to ask the opposition's next question"),
    ("meeting-education_24", "Yes, perhaps you could provide a note to the committee on that.⟦\n\nMeilyr Rowlands: "
     "| ⟧Yes, I could have a list of schools and how much they've closed, perhaps.",
     "the witness's label is dropped: the Chair's request and the witness's offer become one speaker's words"),
    ("meeting-education_2", "Teachers know their pupils and, very sensitively, they could include people who may not "
     "be obviously in need.⟦\n\nKirsty Williams AM: | ⟧We would absolutely respect the professional judgment of "
     "individual headteachers to be able to have those conversations with their directors.",
     "the Minister's label is dropped: her commitment is attributed to the Member"),
    ("meeting-ES2010c", "Did we finalise what buttons we're including or we just everything that we said "
     "before?⟦\n\nProject Manager: | ⟧I think there will be time for that later.",
     "the manager's label is dropped: the interface designer seems to answer her own question"),
    ("meeting-ES2002c", "But are people gonna wanna shake their movie controller?⟦\n\nIndustrial Designer: | ⟧um "
     "it's probably sensitive enough when you fiddle it.",
     "the designer's label is dropped: the marketing expert seems to answer her own doubt"),
]

GENUINE_FILLERS = [
    # um / uh
    ("meeting-Bmr010", "Cuz there is one thing that we don't have right now and that is the automatic⟦, um,|⟧ "
     "channel identifier.", "', um,' removed: a filler"),
    ("meeting-ES2013b", "⟦Uh t|T⟧ypically it would be a battery, but I'm open to suggestions.",
     "opening 'Uh' removed (and the next word capitalised): a filler"),
    ("meeting-Bed014", "But the other part of it is the way they connect to these⟦, uh,|⟧ probabilistic "
     "relational models.", "', uh,' removed: a filler"),
    ("meeting-ES2008c", "I do think that⟦ um|⟧ one of the important features for a remote is seeing a menu and "
     "seeing what's on.", "'um' removed: a filler"),
    ("meeting-IS1000d", "So it's just a shortlist of criteria on⟦ um|⟧ the things that we've identified as being "
     "important to selling the product.", "'um' removed: a filler"),
    ("meeting-IS1002c", "If it creates something more complex or more expensive, then I don't know if that makes "
     "it⟦ uh|⟧ a marketing necessity.", "'uh' removed: a filler"),
    ("meeting-TS3009d", "We had⟦ um|⟧ nice design, and then you get the cost, and you had to dump all your "
     "creativity.", "'um' removed: a filler"),
    ("meeting-ES2014b", "⟦Um |⟧I think that's just for a video, so we wouldn't need any of that at all.",
     "opening 'Um' removed: a filler"),
    ("meeting-TS3009c", "We're gonna have real⟦ uh|⟧ cool shapes and lots of colours.", "'uh' removed: a filler"),
    ("meeting-TS3009b", "It should be⟦ uh|⟧ recognisable at all times.", "'uh' removed: a filler"),
    ("meeting-Bed002", "But that's⟦, um,|⟧ not what we're gonna do.",
     "', um,' removed: a filler (next to a negation, which stays)"),
    ("meeting-ES2010d", "⟦Um a|A⟧fter the opening we're going to have a prototype presentation, then we're going to "
     "discuss the evaluation criteria and the financing of our remote.",
     "opening 'Um' removed (and the next word capitalised): a filler"),
    # multi-word fillers set off by commas
    ("meeting-Bro028", "And it would turn⟦, you know,|⟧ one thing into another.",
     "', you know,' removed: a filler set off by commas"),
    ("meeting-Bro021", "And I'm in the process of⟦, like,|⟧ building up that stuff.",
     "', like,' removed: a filler set off by commas"),
    ("meeting-Bmr006", "But⟦, you know|⟧, as a feature, it might be OK.",
     "', you know' removed: a filler set off by commas"),
    ("meeting-education_3", "But⟦, you know,|⟧ that is a decision for local and central Government to decide how "
     "much they can afford.", "', you know,' removed: a filler set off by commas"),
    ("meeting-ES2006c", "so I think⟦, you know,|⟧ a screen on the remote would probably cut down your time on that.",
     "', you know,' removed: a filler set off by commas"),
    ("meeting-Bdb001", "So⟦, you know|⟧, a prosodic phrase may cross two sentences or something.",
     "', you know' removed: a filler set off by commas"),
    ("meeting-education_14", "So⟦, you know|⟧, schools play a key role in the universal service of this and we "
     "work very closely with our social care colleagues on that.",
     "', you know' removed: a filler set off by commas"),
    ("meeting-Bmr010", "It was just a question of getting⟦, you know,|⟧ the right people connected in, who had the "
     "time.", "', you know,' removed: a filler set off by commas"),
    ("meeting-Bro011", "but for the shorter words⟦, you know|⟧, the total number of frames is actually half as "
     "many.", "', you know' removed: a filler set off by commas"),
    ("meeting-Bmr027", "⟦I mean, t|T⟧he status reports you do are very helpful.",
     "opening 'I mean,' removed: a discourse filler"),
    ("meeting-Bro019", "⟦I mean, t|T⟧he filter bank is good for all the reasons that we say it's good.",
     "opening 'I mean,' removed: a discourse filler"),
    ("meeting-education_17", "So, to try and⟦, sort of,|⟧ discourage it at a younger age may be doing them a "
     "disservice in the long run.", "', sort of,' removed: a filler set off by commas"),
]

GENUINE_FALSE_START = [
    # a repeated start
    ("meeting-Bro018", "And ⟦if you had -- |⟧if you had fifty filters, you'd be throwing away hardly anything.",
     "the repeated start 'if you had --' removed"),
    ("meeting-Bmr014", "And that sort of bypasses ⟦the whole -- |⟧the whole Jimbox thing and all that.",
     "the repeated start 'the whole --' removed"),
    ("meeting-Buw001", "But ⟦that -- |⟧that's gonna be very hard to generate.", "the repeated 'that --' removed"),
    ("meeting-Bed004", "Well, ⟦that -- |⟧that actually is relatively easy in this case.",
     "the repeated 'that --' removed"),
    ("meeting-Bro012", "And additionally ⟦we -- |⟧we already have a lot of data that's been collected with that, "
     "so.", "the repeated 'we --' removed"),
    ("meeting-Bmr020", "So I wanted to get some sense of ⟦what -- |⟧what almost always meant.",
     "the repeated 'what --' removed"),
    ("meeting-Bro028", "So ⟦I -- |⟧I don't know what those numbers really mean.",
     "the repeated 'I --' removed (the negation stays)"),
    ("meeting-Bmr026", "But ⟦I -- |⟧I know that generally their first priority has been for backed up disk.",
     "the repeated 'I --' removed"),
    ("meeting-Bmr012", "So this is only twenty minutes of one meeting with ⟦no -- |⟧no tailoring at all.",
     "the repeated 'no --' removed: one 'no' stays, so the negation is kept"),
    ("meeting-Bmr026", "No ⟦they were -- |⟧they were comparable.", "the repeated start 'they were --' removed"),
    ("meeting-Bmr023", "Yeah, I guess if he did it right, he did fix it ⟦and then -- |⟧and then it's taking care "
     "of sampling rate, which is great.", "the repeated start 'and then --' removed"),
    ("meeting-Bmr006", "Oh, ⟦no -- |⟧no, it's a perfectly sensible way to go.",
     "the repeated 'no --' removed: one 'no' stays"),
    # a start abandoned for a corrected one
    ("meeting-Bro018", "People would say \" yeah, ⟦I could -- |⟧I can imagine getting that \".",
     "the abandoned start 'I could --' removed; the quote keeps the speaker's corrected wording"),
    ("meeting-Bed010", "So yes, ⟦I might -- |⟧I can be around.",
     "the abandoned start 'I might --' removed; the quote keeps the corrected wording"),
    ("meeting-Bro028", "What kind of numbers are they getting ⟦on these -- |⟧on the test conditions?",
     "the abandoned start 'on these --' removed"),
    ("meeting-TS3006d", "So if you give a true to a positive, it actually means that ⟦the low -- |⟧the lower the "
     "better.", "the abandoned start 'the low --' removed"),
    ("meeting-ES2011d", "So you can change the colour, according ⟦to your -- |⟧to suit your living room or "
     "whatever.", "the abandoned start 'to your --' removed; note that the kept 'according to suit' is the "
     "speaker's own syntax"),
    ("meeting-Bro005", "⟦I think -- |⟧I guess we can turn off our microphones now.",
     "the abandoned start 'I think --' removed; the quote keeps the corrected 'I guess'"),
    ("meeting-ES2008d", "⟦I just -- |⟧I guess I've just never lost the remote.",
     "the abandoned start 'I just --' removed"),
    ("meeting-Bro025", "Can you use the same net that ⟦you -- |⟧that I was talking about to do the VAD?",
     "the abandoned start 'that you --' removed; the quote keeps the corrected 'that I'"),
    # a stutter
    ("meeting-TS3006d", "But ⟦th |⟧this one wasn't good, because if I was drawing here, I drew a line and then it "
     "came over here.", "the stutter 'th' removed"),
    ("meeting-ES2002a", "so ⟦y |⟧you know what you're doing there.", "the stutter 'y' removed"),
    ("meeting-ES2005d", "Oh we've been writing this up for ⟦m |⟧months.", "the stutter 'm' removed"),
    ("meeting-TS3011a", "So do not ⟦m |⟧make a new file.", "the stutter 'm' removed (the negation stays)"),
    ("meeting-ES2003c", "I mean if you have a firm ⟦s |⟧sub-structure, you can then incorporate articulation into "
     "that.", "the stutter 's' removed"),
    ("meeting-IS1006b", "So we will have a ⟦p |⟧portable device which will send message to the the main device "
     "like T_V_.", "the stutter 'p' removed"),
]

GENUINE_ASIDE = [
    ("meeting-education_9", "And so we're interested in looking⟦, as I said,| …⟧ at some of the practices that other "
     "countries use to include pupil voice to find out what's happening.",
     "the ellipsis covers the aside ', as I said,', which holds no content"),
    ("meeting-covid_1", "This is important for them and⟦, of course,| …⟧ very important for our economy.",
     "the ellipsis covers the aside ', of course,'"),
    ("meeting-education_1", "And⟦, of course,| …⟧ teachers will have a range of data and their own professional "
     "judgment that they will use in awarding that grade.", "the ellipsis covers the aside ', of course,'"),
    ("meeting-education_12", "And⟦, obviously,| …⟧ the school staff is wider than the teachers.",
     "the ellipsis covers the aside ', obviously,'"),
    ("meeting-education_22", "So, we're learning about these things, but the biggest one⟦, I have to say,| …⟧ is the "
     "administrative burden, and I think that's interesting in how we take this forward for a wider roll-out.",
     "the ellipsis covers the aside ', I have to say,'"),
    ("meeting-education_4", "I think that what the school does though is something that has to loop back⟦, as I "
     "said,| …⟧ with the curriculum changes as we're going forward.",
     "the ellipsis covers the aside ', as I said,'"),
    ("meeting-education_14", "And⟦, in fact,| …⟧ in lots of places in Wales now, it’s a multi-agency assessment.",
     "the ellipsis covers the aside ', in fact,'"),
    ("meeting-education_11", "The key thrust of this is that there is a backbone⟦, if you like,| …⟧ of a consistent "
     "approach with that local variation.", "the ellipsis covers the aside ', if you like,'"),
    ("meeting-education_22", "But what we are finding is, for example, one of the well-known ones⟦—and I've spoken "
     "about this before—| … ⟧is that, in some of the south Wales Valleys constituencies, there is a family tradition "
     "of doing childcare within the families.",
     "the ellipsis covers the dash aside 'and I've spoken about this before'"),
    ("meeting-education_3", "So, it's now time⟦—and this was the chief message of my annual report this year—| … ⟧for "
     "every school in Wales to start to think.",
     "the ellipsis covers a dash aside about the annual report; it does not bear on the kept claim"),
    ("meeting-education_24", "So, you think⟦—and I'd agree—| … ⟧that the focus on pedagogy is correct and that this "
     "culture that appears to be putting more emphasis on self-improvement, and so on, is a positive one.",
     "the ellipsis covers the dash aside 'and I'd agree', which does not change what the witness is said to think"),
    ("meeting-education_22", "The £4.50 is a contribution towards the wraparound childcare element but it doesn't "
     "cover⟦—and we agonised over this—| … ⟧the issues of things like transport out on trips or food or snacks and "
     "things like this.", "the ellipsis covers the dash aside 'and we agonised over this'"),
    ("meeting-education_0", "The Fostering Network has extended its helpline hours, and, of course, Voices from "
     "Care⟦—I mentioned them before—| … ⟧have developed this particular offer of support for care leavers.",
     "the ellipsis covers the dash aside 'I mentioned them before'"),
    ("meeting-IS1009a", "Here's the project finance uh which⟦, of course,| …⟧ we all have to think about when we "
     "design this thing.", "the ellipsis covers the aside ', of course,'"),
    ("meeting-covid_10", "The program today is $252 million, which comes on top of the broad range of other programs "
     "that farmers⟦, of course,| …⟧ have access to.", "the ellipsis covers the aside ', of course,'"),
]

# The mined genuine families (mine.py): what a reader rejected among the seeded picks, and why.
# A kept sentence after a whole-sentence ellipsis may not open with one of these words: they point back or tie
# the sentence to what came just before.
OPENER_STOP = set("this that it these those he she they them their his her its so but and or however therefore "
                  "then also yes no well because which such here there again similarly otherwise instead hence "
                  "thus both neither one another secondly second third finally first yeah okay ok".split())

WS_REJECT = {
    ("meeting-covid_10", "If a company is cheating the public, usin"): "the kept question's 'he' has its antecedent (the Prime Minister) in the hidden sentences",
    ("meeting-covid_4", "The idea is to offer support, but with c"): "the kept 'no increase' is about workers' salaries, named only in the hidden sentences",
    ("meeting-covid_8", "With Bill C-17 looming in the background"): "the kept sentence opens with 'That's', pointing back to the hidden question",
    ("meeting-education_3", "Siân might develop that a little bit fur"): "the kept question's 'it' refers to the hidden teacher shortage",
    ("meeting-covid_5", "This crisis has struck them very hard."): "the kept 'also' ties the sentence to the hidden measures",
    ("meeting-education_6", "So, I don't support those amendments."): "the kept sentence opens with 'In addition', tying it to the hidden sentence",
    ("meeting-covid_9", "That is a matter of fact."): "the first kept sentence is only 'That is a matter of fact', with no content of its own",
    ("meeting-covid_6", "Louise Outreach Centre, Knights Table, t"): "the kept 'this report' points to the report named in the hidden sentence",
    ("meeting-education_19", "So, if I could just make some points on "): "the kept 'it's quite a different response' refers to the colleges' response in the hidden sentences",
    ("meeting-ES2016b", "At least if we're targeting the younger "): "the first kept sentence is a fragment",
    ("meeting-education_22", "And I don't say that glibly."): "the first kept sentence points back ('that') and has no content of its own",
    ("meeting-education_15", "By that I mean in England, for example, "): "the kept 'that would have' refers to the hidden proposal",
    ("meeting-IS1004b", "no no no, I'm no I'm definit definitely "): "the first kept sentence is full of repeats",
    ("meeting-education_2", "So, thank you for what you've been doing"): "the kept 'developed that' refers to the new purpose named in the hidden sentence",
}
WS_REJECT.update({
    ("meeting-education_20", "No. We will move on then to item 2, and "): "the first kept sentence opens with a bare 'No.'",
    ("meeting-covid_5", "That's the kind of assistance we are cal"): "the first kept sentence only points back ('That's the kind of assistance')",
    ("meeting-covid_6", "They note that the system across Canada "): "the kept 'call that a summary' points back to the hidden sentence",
    ("meeting-education_0", "We're working with the third sector."): "the hidden sentences hold another case's passage",
    ("meeting-covid_8", "Mr. Chair, on Saturday our community sto"): "the kept 'that is the racial inequality' points back to the hidden sentences",
    ("meeting-covid_10", "Their interpretation of those rules has "): "the kept 'continue to do that' refers to the hidden follow-up",
    ("meeting-education_3", "I think their commitment and their engag"): "the kept 'that's what's going to' points back to the hidden sentence",
    ("meeting-education_6", "Now, the Deputy Minister mentioned the '"): "the kept sentence opens with 'Consequently', tying it to the hidden sentence",
    ("meeting-covid_7", "My question is for the Minister of Emplo"): "the kept 'it was to improve the program' refers to the hidden announcement",
    ("meeting-ES2015c", "That's got a lot to do with the ergonomi"): "the first kept sentence points back",
    ("meeting-covid_3", "We have spent a lot of time talking abou"): "the kept 'I know this' may point to the hidden figures",
    ("meeting-TS3008a", "User requirements specifi Well, this one"): "the first kept sentence is broken",
    ("meeting-ES2003b", "And if they do, not very often."): "the first kept sentence is a fragment",
})
WS_REJECT.update({
    ("meeting-covid_6", "The government's response was that it w"): "the first kept sentence's 'it' points to what came before",
    ("meeting-covid_8", "The advent of digital technology has com"): "the kept 'The first is' refers to the solutions named in the hidden sentence",
    ("meeting-education_7", "We’re currently focusing on individual d"): "the kept 'extend that' refers to the hidden pilot",
    ("meeting-education_4", "So, that has to be taken deeply into con"): "the first kept sentence only points back",
})
WS_REJECT.update({
    ("meeting-education_5", "So, our school improvement service"): "the kept 'that accountability system' refers to the accountability named in the hidden sentence",
    ("meeting-covid_6", "Mr.Chair, I would like to recognize the r"): "the kept 'To do so' refers to the hidden plan",
    ("meeting-education_24", "The latest guidance on the grant now say"): "the kept 'that is an important part' refers to the hidden catch-up clubs",
})
WS_REJECT.update({
    ("meeting-education_8", "And finally, therefore, looking at overse"): "the kept 'this created problems' refers to the hidden sentence",
})
WS_REJECT.update({
    ("meeting-education_21", "I understand that, but I've got people"): "the kept 'We're three years on' depends on the hidden '2015' and would be read as about broadband",
    ("meeting-IS1003d", "It's just your turning from the base."): "the first kept sentence is a fragment and the kept 'it' has no clear antecedent",
})
WS_REJECT.update({
    ("meeting-TS3006c", "Let's say this is the side view."): "the kept 'If you know what I mean' is no sentence of its own",
})

EXC_REJECT = {
    ("meeting-education_17", "I know what this is about'"): "the excerpt would keep a stray closing quote mark",
    ("meeting-education_9", "We had our pioneer school model"): "the rest ('we have slightly refined that now') qualifies the kept words",
    ("meeting-education_0", "There are weekly meetings between officials"): "'and the heads' coordinates a noun: the cut changes who meets",
    ("meeting-covid_7", "I want to remind the honourable members"): "'and the heckling' coordinates a noun: the kept words are an unfinished clause",
    ("meeting-Bro027", "Which is a million filter it"): "the kept words are garbled",
}


def _rows(family, rows, language=""):
    out = []
    for row in rows:
        doc, template, why = row[:3]
        debatable = row[3] if len(row) > 3 else False
        out.append(Spec(family, doc, template, why, debatable, language=language))
    return out


def specs(docs):
    out = []
    out += _rows("ellipsis_content", ELLIPSIS_CONTENT)
    out += _rows("excerpt_turned", EXCERPT_TURNED)
    out += _rows("bracket_content", BRACKET_CONTENT)
    out += _rows("word_rare", WORD_RARE)
    out += _rows("speech_act", SPEECH_ACT)
    out += _rows("turns", TURNS)
    out += _rows("genuine_fillers", GENUINE_FILLERS)
    out += _rows("genuine_false_start", GENUINE_FALSE_START)
    out += _rows("genuine_aside", GENUINE_ASIDE)
    out += _rows("genuine_whole_sentences", mine.whole_sentences(docs, n=20, reject=set(WS_REJECT),
                                                                 opener_stop=OPENER_STOP))
    out += _rows("genuine_isation", mine.isation(docs, n=18, reject=set()))
    out += _rows("genuine_verbatim_excerpt", mine.verbatim_excerpts(docs, n=20, reject=set(EXC_REJECT)))
    return out
