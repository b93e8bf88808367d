"""Lesson 2, Jokers and the order of reveals: a Joker takes its colour when revealed,
after the players before you; two cards aimed at one place collide and the later one is
discarded. Four players; Ana is first player."""

LESSON = {
    "id": "jokers-and-order",
    "number": 2,
    "players": 4,
    "modes": [],
    "first_player": 1,
    "learner": 0,
    "names": ["You", "Ana", "Basile", "Chloé"],
    "title": {"en": "Jokers and the order of reveals", "fr": "Jokers et ordre des révélations"},
    "summary": {
        "en": "A Joker is every Condition; the players before you reveal first; two cards "
        "for one place collide.",
        "fr": "Un Joker vaut toutes les Conditions ; les joueurs avant vous révèlent "
        "d'abord ; deux cartes pour une même place entrent en collision.",
    },
    "intro": {
        "en": "You hold both Jokers of the game. A Joker is a multiple Condition: when you "
        "reveal it, you choose its colour. Ana is first player: this turn you reveal last.",
        "fr": "Vous avez les deux Jokers de la partie. Un Joker est une Condition "
        "multiple : en le révélant, vous choisissez sa couleur. Ana est première joueuse : "
        "ce tour-ci, vous révélez en dernier.",
    },
    "outro": {
        "en": "Won! A Joker waits to choose its colour until the players before you have "
        "revealed; a card of a colour with one open place may collide with a partner's. "
        "Next lesson: Symbioses.",
        "fr": "Gagné ! Un Joker attend, pour choisir sa couleur, que les joueurs avant vous "
        "aient révélé ; une carte d'une couleur à une seule place ouverte peut entrer en "
        "collision avec celle d'un partenaire. Leçon suivante : les Symbioses.",
    },
    "turns": [
        {  # first player 1: Ana, Basile, Chloé, you
            "reveals": [
                ("cond-blue-1", "species-ortie:1"),
                ("cond-yellow-1", "species-ortie:2"),
                ("cond-green-1", "species-jonc:2"),
                ("joker-1", "species-jonc:1", "blue"),
            ],
            "say": {
                "program": {
                    "en": "Program a Joker: revealed last, it can fill whatever the "
                    "others leave open.",
                    "fr": "Programmez un Joker : révélé en dernier, il peut remplir ce que "
                    "les autres laissent ouvert.",
                },
                "reveal": {
                    "en": "Your partners filled three places. Every place your Joker could "
                    "take lights up; the Jonc still needs its hydric Condition.",
                    "fr": "Vos partenaires ont rempli trois places. Toutes les places que "
                    "votre Joker peut prendre s'allument ; le Jonc attend encore sa "
                    "Condition hydrique.",
                },
            },
        },
        {  # first player 2: Basile, Chloé, you, Ana
            "reveals": [
                ("species-ortie", "species-ortie"),
                ("cond-yellow-2", "species-aubepine:1"),
                ("cond-green-2", "species-aubepine:2"),
                ("cond-yellow-3", None),
            ],
            "say": {
                "program": {
                    "en": "The First Player card moved to Basile: Basile, Chloé, you, then "
                    "Ana reveal, in that order.",
                    "fr": "La carte Premier joueur est passée à Basile : Basile, Chloé, "
                    "vous, puis Ana révélez, dans cet ordre.",
                },
            },
        },
        {  # first player 3: Chloé, you, Ana, Basile
            "reveals": [
                ("species-jonc", "species-jonc"),
                ("species-aubepine", "species-aubepine"),
                ("cond-green-3", "species-chene:1"),
                ("cond-violet-1", "species-chene:2"),
            ],
            "say": {
                "program": {
                    "en": "Look at the last turn: Chloé took the only thermal place left "
                    "for the plants, so Ana's thermal Condition, revealed after, had no "
                    "place and was discarded. Two cards aimed at one place: a collision. "
                    "The team may discard 2 cards; one is used.",
                    "fr": "Regardez le tour précédent : Chloé a pris la dernière place "
                    "thermique des plantes, alors la Condition thermique d'Ana, révélée "
                    "après, n'avait plus de place : défaussée. Deux cartes visaient une "
                    "même place : une collision. L'équipe peut défausser 2 cartes ; une "
                    "est prise.",
                },
            },
        },
        {  # first player 0: you, Ana, Basile, Chloé
            "reveals": [
                ("cond-violet-2", "species-carabe-dore:2"),
                ("species-chene", "species-chene"),
                ("cond-violet-3", "species-mesange-bleue:1"),
                ("cond-green-4", "species-mesange-bleue:2"),
            ],
            "say": {
                "program": {
                    "en": "You are first player: nobody reveals before you, so nothing can "
                    "take your place first. The Carabe doré is open and its atmospheric "
                    "place is the only one of its colour.",
                    "fr": "Vous êtes premier joueur : personne ne révèle avant vous, rien "
                    "ne peut prendre votre place. Le Carabe doré est ouvert et sa place "
                    "atmosphérique est la seule de sa couleur.",
                },
            },
        },
        {  # first player 1: Ana, Basile, Chloé, you
            "reveals": [
                ("species-mesange-bleue", "species-mesange-bleue"),
                ("cond-yellow-4", "species-carabe-dore:1"),
                ("cond-blue-3", "species-campagnol:2"),
                ("joker-2", "species-campagnol:1", "yellow"),
            ],
            "say": {
                "program": {
                    "en": "You reveal last. You hold a hydric Condition, but the only "
                    "hydric place open is the Campagnol's, and three partners reveal "
                    "before you: if one of them fills it, your card collides. Program your "
                    "Joker instead: it takes its colour after seeing their cards.",
                    "fr": "Vous révélez en dernier. Vous avez une Condition hydrique, mais "
                    "la seule place hydrique ouverte est celle du Campagnol, et trois "
                    "partenaires révèlent avant vous : si l'un d'eux la remplit, votre "
                    "carte entre en collision. Programmez plutôt votre Joker : il prend sa "
                    "couleur après avoir vu leurs cartes.",
                },
                "reveal": {
                    "en": "Chloé did fill the Campagnol's hydric place: your hydric card "
                    "would have been discarded. Give your Joker the colour thermal, on the "
                    "Campagnol.",
                    "fr": "Chloé a bien rempli la place hydrique du Campagnol : votre carte "
                    "hydrique aurait été défaussée. Donnez à votre Joker la couleur "
                    "thermique, sur le Campagnol.",
                },
            },
        },
        {  # first player 2: Basile, Chloé, you, Ana
            "reveals": [
                ("species-carabe-dore", "species-carabe-dore"),
                ("species-campagnol", "species-campagnol"),
                ("cond-blue-2", "species-herisson:2"),
                ("cond-green-5", "species-herisson:1"),
            ],
            "say": {
                "program": {
                    "en": "Your Joker became the Campagnol's thermal Condition. Now the "
                    "Carabe doré and the Mésange bleue open the Hérisson, which needs a "
                    "hydric Condition: your hydric card has a place again.",
                    "fr": "Votre Joker est devenu la Condition thermique du Campagnol. Le "
                    "Carabe doré et la Mésange bleue ouvrent maintenant le Hérisson, qui "
                    "demande une Condition hydrique : votre carte hydrique a de nouveau "
                    "une place.",
                },
            },
        },
        {  # first player 3: Chloé, you, Ana, Basile
            "reveals": [
                ("cond-violet-4", "species-martre:1"),
                ("species-herisson", "species-herisson"),
                ("cond-yellow-5", "species-martre:2"),
                ("species-martre", "species-martre"),
            ],
        },
        {  # first player 0: you, Ana, Basile, Chloé
            "reveals": [
                ("cond-blue-4", "species-aigle-royal:1"),
                ("cond-violet-5", "species-aigle-royal:2"),
                ("species-aigle-royal", "species-aigle-royal"),
                ("cond-blue-5", None),
            ],
            "say": {
                "program": {
                    "en": "Last turn: you reveal first, so the Aigle royal's hydric place "
                    "is yours for sure.",
                    "fr": "Dernier tour : vous révélez en premier, la place hydrique de "
                    "l'Aigle royal est donc sûrement à vous.",
                },
            },
        },
    ],
}
