"""Lesson 4, an advanced rule: Climate Change (a hydric card revealed just before or just
after a thermal one is discarded), stage 1 of Path 3, and how paths chain the rules."""

LESSON = {
    "id": "climate-change",
    "number": 4,
    "players": 4,
    "modes": ["climate_change"],
    "first_player": 0,
    "learner": 0,
    "names": ["You", "Ana", "Basile", "Chloé"],
    "title": {
        "en": "An advanced rule: Climate Change",
        "fr": "Une règle avancée : le Changement climatique",
    },
    "summary": {
        "en": "A hydric card next to a thermal one in the reveal is discarded; the paths "
        "chain the advanced rules.",
        "fr": "Une carte hydrique révélée à côté d'une thermique est défaussée ; les "
        "parcours enchaînent les règles avancées.",
    },
    "intro": {
        "en": "Twelve advanced rules change the game. This one is Climate Change: if, in "
        "the same turn, a thermal (yellow) card is revealed just before or just after a "
        "hydric (blue) card, the hydric card is discarded, even if it was placed. A Joker "
        "counts by the colour it is given.",
        "fr": "Douze règles avancées changent le jeu. Voici le Changement climatique : si, "
        "dans un même tour, une carte thermique (jaune) est révélée juste avant ou juste "
        "après une carte hydrique (bleue), la carte hydrique est défaussée, même posée. Un "
        "Joker compte selon la couleur qu'on lui donne.",
    },
    "outro": {
        "en": "Won! Climate Change is stage 1 of Path 3, Human Impacts; stage 2 adds "
        "Environmental Changes and stage 3 Species Reintroductions, each on top of the "
        "stages before. Win the three stages in a row to win the path. Choose a path, or "
        "any mix of rules, when you create a room.",
        "fr": "Gagné ! Le Changement climatique est l'étape 1 du parcours 3, Impacts "
        "humains ; l'étape 2 ajoute les Changements environnementaux et l'étape 3 les "
        "Réintroductions d'espèces, chacune en plus des précédentes. Gagnez les trois "
        "étapes d'affilée pour gagner le parcours. Choisissez un parcours, ou les règles "
        "de votre choix, en créant une salle.",
    },
    "turns": [
        {  # first player 0: you, Ana, Basile, Chloé
            "reveals": [
                ("cond-green-1", "species-jonc:2"),
                ("cond-yellow-1", "species-ortie:2"),
                ("cond-blue-1", None),
                ("cond-violet-1", "species-chene:2"),
            ],
            "say": {
                "reveal": {
                    "en": "Put your geological Condition on the Jonc.",
                    "fr": "Posez votre Condition géologique sur le Jonc.",
                },
            },
        },
        {  # first player 1: Ana, Basile, Chloé, you
            "reveals": [
                ("cond-blue-2", "species-ortie:1"),
                ("cond-green-2", "species-chene:1"),
                ("cond-blue-3", "species-jonc:1"),
                ("species-ortie", "species-ortie"),
            ],
            "say": {
                "program": {
                    "en": "Last turn Basile's hydric Condition came right after Ana's "
                    "thermal one: Climate Change discarded it. This turn Chloé reveals "
                    "just before you, and the Jonc's hydric place is open: a thermal card "
                    "from you could cost her card. Play the Ortie, a Species.",
                    "fr": "Au tour précédent, la Condition hydrique de Basile est venue "
                    "juste après la thermique d'Ana : le Changement climatique l'a "
                    "défaussée. Ce tour-ci, Chloé révèle juste avant vous, et la place "
                    "hydrique du Jonc est ouverte : une carte thermique de votre part "
                    "pourrait lui coûter sa carte. Jouez l'Ortie, une Espèce.",
                },
            },
        },
        {  # first player 2: Basile, Chloé, you, Ana
            "reveals": [
                ("species-chene", "species-chene"),
                ("species-jonc", "species-jonc"),
                ("cond-yellow-2", "species-aubepine:1"),
                ("cond-green-3", "species-aubepine:2"),
            ],
            "say": {
                "program": {
                    "en": "Before you come two Species this turn, and Ana follows you: a "
                    "thermal card is safe unless Ana plays a hydric one.",
                    "fr": "Deux Espèces passent avant vous ce tour-ci, et Ana vous suit : "
                    "une carte thermique ne risque rien, sauf si Ana joue une hydrique.",
                },
            },
        },
        {  # first player 3: Chloé, you, Ana, Basile
            "reveals": [
                ("species-aubepine", "species-aubepine"),
                ("joker-1", "species-carabe-dore:2", "violet"),
                ("cond-blue-4", "species-campagnol:2"),
                ("cond-green-4", "species-mesange-bleue:2"),
            ],
            "say": {
                "reveal": {
                    "en": "Ana reveals right after you. A thermal Joker would put a hydric "
                    "card of hers at risk: make your Joker atmospheric, on the Carabe doré.",
                    "fr": "Ana révèle juste après vous. Un Joker thermique mettrait en "
                    "danger une carte hydrique de sa part : faites de votre Joker une "
                    "Condition atmosphérique, sur le Carabe doré.",
                },
            },
        },
        {  # first player 0: you, Ana, Basile, Chloé
            "reveals": [
                ("cond-yellow-3", "species-campagnol:1"),
                ("species-campagnol", "species-campagnol"),
                ("cond-violet-2", "species-mesange-bleue:1"),
                ("species-mesange-bleue", "species-mesange-bleue"),
            ],
        },
        {  # first player 1: Ana, Basile, Chloé, you
            "reveals": [
                ("cond-yellow-4", "species-carabe-dore:1"),
                ("species-carabe-dore", "species-carabe-dore"),
                ("cond-green-5", "species-herisson:1"),
                ("cond-blue-5", "species-herisson:2"),
            ],
            "say": {
                "program": {
                    "en": "You reveal last, after a geological card if all goes well: "
                    "your hydric Condition is safe from the thermal one Ana reveals first.",
                    "fr": "Vous révélez en dernier, après une carte géologique si tout va "
                    "bien : votre Condition hydrique ne craint pas la thermique qu'Ana "
                    "révèle en premier.",
                },
            },
        },
        {  # first player 2: Basile, Chloé, you, Ana
            "reveals": [
                ("cond-violet-3", "species-martre:1"),
                ("cond-yellow-5", "species-martre:2"),
                ("species-herisson", "species-herisson"),
                ("species-martre", "species-martre"),
            ],
        },
        {  # first player 3: Chloé, you, Ana, Basile
            "reveals": [
                ("cond-violet-4", "species-aigle-royal:2"),
                ("joker-2", "species-aigle-royal:1", "blue"),
                ("species-aigle-royal", "species-aigle-royal"),
                ("cond-violet-5", None),
            ],
            "say": {
                "program": {
                    "en": "Last turn: your Joker will be the Aigle royal's hydric "
                    "Condition, between two cards that are not thermal.",
                    "fr": "Dernier tour : votre Joker sera la Condition hydrique de l'Aigle "
                    "royal, entre deux cartes qui ne sont pas thermiques.",
                },
            },
        },
    ],
}
