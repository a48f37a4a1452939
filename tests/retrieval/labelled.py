"""A small labelled corpus for the hybrid-beats-each-method test.

Families of near-identical passages that differ in one code, number or name, the way abstracts of related
trials do. Sentence embeddings blur such details (the 2,417-nurse cohort looks like the other cohorts), while
BM25 is misled when a wrong passage mentions every query word and is shorter (the TNF passage also names IL-6,
IL-8 and septic shock). Each method misses the top answer on different queries (checked with the bundled model:
vector on the two cohort-number queries, BM25 on the IL-6 and IL-8 ones), while the right passage stays near the
top of the method that misses it; fusion should then rank it first everywhere (it does with the default RRF
k=5, with RRF k=60 and with convex fusion).
"""

# (doc id, title, section heading, text)
DOCS = [
    ("kx41", "Compound KX-41", "Safety", "KX-41 raised liver enzymes in healthy volunteers at the highest dose."),
    ("kx44", "Compound KX-44", "Safety", "KX-44 raised liver enzymes in healthy volunteers at the middle dose."),
    ("kx47", "Compound KX-47", "Safety", "KX-47 raised liver enzymes in healthy volunteers at the lowest dose."),
    ("c2011", "Nurses cohort 2011", "Methods", "The 2011 cohort enrolled 3,902 nurses to study night shifts and weight."),
    ("c2014", "Nurses cohort 2014", "Methods", "The 2014 cohort enrolled 2,417 nurses to study night shifts and weight."),
    ("c2017", "Nurses cohort 2017", "Methods", "The 2017 cohort enrolled 5,160 nurses to study night shifts and weight."),
    ("il6", "Cytokines in sepsis", "Results", "IL-6 was the cytokine most raised in septic shock, above IL-8 and TNF."),
    ("il8", "Chemokines in sepsis", "Results", "IL-8 was the chemokine most raised in septic shock, above IL-6 and TNF."),
    ("tnf", "Early cytokines", "Results", "TNF peaked first in septic shock, hours before IL-6 and IL-8 rose."),
    ("v600e", "BRAF V600E in melanoma", "Findings", "BRAF V600E tumours answered vemurafenib in most melanoma patients."),
    ("v600k", "BRAF V600K in melanoma", "Findings", "BRAF V600K tumours answered vemurafenib in fewer melanoma patients."),
    ("nras", "NRAS in melanoma", "Findings",
     "NRAS Q61 tumours did not answer vemurafenib in melanoma patients, unlike BRAF V600E."),
    ("asp", "Aspirin after stroke", "Results", "Aspirin after ischaemic stroke cut early recurrence; clopidogrel added little."),
    ("clop", "Clopidogrel after stroke", "Results", "Clopidogrel after ischaemic stroke cut early recurrence more than aspirin did."),
    ("tica", "Ticagrelor after stroke", "Results", "Ticagrelor with aspirin after minor stroke cut recurrence but raised bleeding."),
]

# (query, the relevant document)
QUERIES = [
    ("KX-44 liver enzymes", "kx44"),
    ("cohort of 2,417 nurses", "c2014"),
    ("the 2017 nurses cohort", "c2017"),
    ("IL-8 in septic shock", "il8"),
    ("TNF in septic shock", "tnf"),
    ("melanoma with V600K", "v600k"),
    ("NRAS melanoma and vemurafenib", "nras"),
    ("clopidogrel after stroke", "clop"),
    ("does ticagrelor cause bleeding after stroke", "tica"),
    ("the cohort that enrolled 3,902 nurses", "c2011"),
    ("aspirin after stroke", "asp"),
    ("vemurafenib response in BRAF V600E melanoma", "v600e"),
    ("IL-6 in septic shock", "il6"),
    ("KX-41 at the highest dose", "kx41"),
    ("nurses enrolled in 2017", "c2017"),
]
