"""Lesson 3, Symbioses: Show (every partner learns the card), Give and give back (only
the two players learn the cards), the discard swap (a discarded card comes back). Four
players with one Symbiosis card each; the first player has a free Symbiosis each turn."""

LESSON = {
    "id": "symbioses",
    "number": 3,
    "players": 4,
    "modes": [],
    "first_player": 0,
    "learner": 0,
    "names": ["You", "Ana", "Basile", "Chloé"],
    "title": {"en": "Symbioses", "fr": "Les Symbioses"},
    "summary": {
        "en": "Show a card to everyone, Give a card and get one back, swap a Condition for "
        "a card of the discard pile.",
        "fr": "Montrer une carte à tous, Donner une carte et en recevoir une, échanger une "
        "Condition contre une carte de la défausse.",
    },
    "intro": {
        "en": "Players never show their hand, except through Symbioses. Each of you has one "
        "Symbiosis card for the whole game, and the first player of each turn gets one "
        "free Symbiosis. You are first player.",
        "fr": "On ne montre jamais sa main, sauf par les Symbioses. Chacun a une carte "
        "Symbiose pour toute la partie, et le premier joueur de chaque tour a une Symbiose "
        "gratuite. Vous êtes premier joueur.",
    },
    "outro": {
        "en": "Won! Show tells every partner one card; Give passes a card to the partner "
        "who can play it at the right moment, and only the two of you learn the cards; the "
        "discard swap brings a lost card back. Next lesson: an advanced rule.",
        "fr": "Gagné ! Montrer fait connaître une carte à tous ; Donner confie une carte au "
        "partenaire qui pourra la jouer au bon moment, et vous seuls connaissez les cartes "
        "échangées ; l'échange avec la défausse ramène une carte perdue. Leçon suivante : "
        "une règle avancée.",
    },
    "turns": [
        {  # first player 0: you, Ana, Basile, Chloé
            "reveals": [
                ("cond-blue-1", "species-ortie:1"),
                ("cond-yellow-1", "species-ortie:2"),
                ("cond-green-1", "species-jonc:2"),
                ("cond-blue-2", "species-jonc:1"),
            ],
            "symbioses": [{"seat": 0, "type": "show", "card": "species-ortie"}],
            "say": {
                "program": {
                    "en": "First program your hydric Condition for the Ortie.",
                    "fr": "Programmez d'abord votre Condition hydrique pour l'Ortie.",
                },
                "show": {
                    "en": "Now tell your partners that you hold the Ortie, so they bring "
                    "its Conditions. Your free Symbiosis is used first.",
                    "fr": "Dites maintenant à vos partenaires que vous avez l'Ortie, pour "
                    "qu'ils apportent ses Conditions. Votre Symbiose gratuite passe en "
                    "premier.",
                },
                "ready": {
                    "en": "Ana, Basile and Chloé now know your Ortie: it is marked as known "
                    "in your hand. A Symbiosis cancels every Ready; say Ready again.",
                    "fr": "Ana, Basile et Chloé connaissent maintenant votre Ortie : elle "
                    "est marquée connue dans votre main. Une Symbiose annule tous les "
                    "Prêt ; dites Prêt à nouveau.",
                },
                "reveal": {
                    "en": "Put your hydric Condition on the Ortie.",
                    "fr": "Posez votre Condition hydrique sur l'Ortie.",
                },
            },
        },
        {  # first player 1: Ana, Basile, Chloé, you
            "reveals": [
                ("cond-yellow-2", "species-aubepine:1"),
                ("species-jonc", "species-jonc"),
                ("species-campagnol", None),
                ("species-ortie", "species-ortie"),
            ],
            "say": {
                "program": {
                    "en": "Ana brought the Ortie's thermal Condition: install the Ortie.",
                    "fr": "Ana a apporté la Condition thermique de l'Ortie : installez l'Ortie.",
                },
            },
        },
        {  # first player 2: Basile, Chloé, you, Ana
            "reveals": [
                ("cond-green-2", "species-aubepine:2"),
                ("species-aubepine", "species-aubepine"),
                ("cond-green-3", "species-chene:1"),
                ("cond-violet-1", "species-chene:2"),
            ],
            "symbioses": [
                {
                    "seat": 0,
                    "type": "swap_discard",
                    "card": "cond-blue-3",
                    "take": "species-campagnol",
                }
            ],
            "say": {
                "program": {
                    "en": "Chloé revealed the Campagnol too early: its place was not open, "
                    "so it was discarded, and the web cannot be finished without it. "
                    "Program your geological Condition first.",
                    "fr": "Chloé a révélé le Campagnol trop tôt : sa place n'était pas "
                    "ouverte, il a été défaussé, et le réseau ne peut pas être fini sans "
                    "lui. Programmez d'abord votre Condition géologique.",
                },
                "swap_discard": {
                    "en": "Bring the Campagnol back: your hydric Condition has no place "
                    "before long. This uses your Symbiosis card; everyone sees the swap.",
                    "fr": "Ramenez le Campagnol : votre Condition hydrique n'aura pas de "
                    "place de sitôt. Cela utilise votre carte Symbiose ; tout le monde voit "
                    "l'échange.",
                },
            },
        },
        {  # first player 3: Chloé, you, Ana, Basile
            "reveals": [
                ("species-chene", "species-chene"),
                ("cond-yellow-3", "species-campagnol:1"),
                ("cond-blue-4", "species-campagnol:2"),
                ("cond-violet-2", "species-carabe-dore:2"),
            ],
            "say": {
                "reveal": {
                    "en": "Chloé's Chêne opened the Campagnol: put your thermal Condition "
                    "on it, so you can install your Campagnol soon.",
                    "fr": "Le Chêne de Chloé a ouvert le Campagnol : posez-y votre "
                    "Condition thermique, pour installer bientôt votre Campagnol.",
                },
            },
        },
        {  # first player 0: you, Ana, Basile, Chloé
            "reveals": [
                ("species-campagnol", "species-campagnol"),
                ("cond-yellow-4", "species-carabe-dore:1"),
                ("cond-green-4", "species-mesange-bleue:2"),
                ("species-carabe-dore", "species-carabe-dore"),
            ],
            "symbioses": [
                {
                    "seat": 0,
                    "type": "give",
                    "card": "species-carabe-dore",
                    "to": 3,
                    "back": "cond-violet-3",
                }
            ],
            "say": {
                "program": {
                    "en": "Program the Campagnol: you reveal first, its two Conditions are "
                    "in place.",
                    "fr": "Programmez le Campagnol : vous révélez en premier, ses deux "
                    "Conditions sont là.",
                },
                "give": {
                    "en": "You also hold the Carabe doré, still missing its thermal "
                    "Condition; Chloé reveals last this turn. Give her the Carabe with "
                    "your free Symbiosis: she gives you one of her cards back.",
                    "fr": "Vous avez aussi le Carabe doré, à qui manque sa Condition "
                    "thermique ; Chloé révèle en dernier ce tour-ci. Donnez-lui le Carabe "
                    "avec votre Symbiose gratuite : elle vous rend une de ses cartes.",
                },
                "ready": {
                    "en": "Chloé gave you back an atmospheric Condition. Only Chloé knows "
                    "she holds the Carabe, and only you know the card she gave; Ana and "
                    "Basile just saw an exchange.",
                    "fr": "Chloé vous a rendu une Condition atmosphérique. Seule Chloé sait "
                    "qu'elle a le Carabe, et vous seul connaissez la carte rendue ; Ana et "
                    "Basile ont seulement vu un échange.",
                },
            },
        },
        {  # first player 1: Ana, Basile, Chloé, you
            "reveals": [
                ("cond-violet-4", "species-mesange-bleue:1"),
                ("species-mesange-bleue", "species-mesange-bleue"),
                ("cond-green-5", "species-herisson:1"),
                ("cond-violet-3", "species-martre:1"),
            ],
            "say": {
                "program": {
                    "en": "Play the atmospheric Condition Chloé gave you: when you reveal, "
                    "the Martre will be open.",
                    "fr": "Jouez la Condition atmosphérique que Chloé vous a rendue : quand "
                    "vous révélerez, la Martre sera ouverte.",
                },
            },
        },
        {  # first player 2: Basile, Chloé, you, Ana
            "reveals": [
                ("cond-blue-5", "species-herisson:2"),
                ("cond-yellow-5", "species-martre:2"),
                ("species-herisson", "species-herisson"),
                ("species-martre", "species-martre"),
            ],
        },
        {  # first player 3: Chloé, you, Ana, Basile
            "reveals": [
                ("joker-1", "species-aigle-royal:1", "blue"),
                ("cond-violet-5", "species-aigle-royal:2"),
                ("species-aigle-royal", "species-aigle-royal"),
                ("joker-2", None),
            ],
        },
    ],
}
