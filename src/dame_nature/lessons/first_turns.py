"""Lesson 1, a turn: programming, the reveal in order, the web's layers, placing and
discarding, the discard count. Four players; you are seat 0 and first player."""

LESSON = {
    "id": "first-turns",
    "number": 1,
    "players": 4,
    "modes": [],
    "first_player": 0,
    "learner": 0,
    "names": ["You", "Ana", "Basile", "Chloé"],
    "title": {"en": "A turn", "fr": "Un tour de jeu"},
    "summary": {
        "en": "Program a card, reveal in order, build the web of life layer by layer, "
        "place or discard, and keep the discards low.",
        "fr": "Programmer une carte, révéler dans l'ordre, bâtir le réseau du vivant "
        "étage par étage, placer ou défausser, et garder peu de défausses.",
    },
    "intro": {
        "en": "Dame Nature is cooperative: the four of you build one web of life together. "
        "Every turn each player programs one card face down, then the cards are revealed "
        "one by one from the first player and placed in the web, or discarded. You hold "
        "8 cards: the game lasts 8 turns. Ana, Basile and Chloé are your partners.",
        "fr": "Dame Nature est un jeu coopératif : à quatre, vous bâtissez ensemble un seul réseau "
        "du vivant. À chaque tour, chaque joueur programme une carte face cachée, puis les "
        "cartes sont révélées une à une depuis le premier joueur et posées dans le réseau, "
        "ou défaussées. Vous avez 8 cartes : la partie dure 8 tours. Ana, Basile et Chloé "
        "sont vos partenaires.",
    },
    "outro": {
        "en": "The Aigle royal is installed: the web is complete and you have won, with one "
        "card discarded (the fewer, the greater the glory). Next lesson: Jokers and the "
        "order of reveals.",
        "fr": "L'Aigle royal est installé : le réseau est complet, vous avez gagné, avec "
        "une seule carte défaussée (moins il y en a, plus la victoire est belle). Leçon "
        "suivante : les Jokers et l'ordre des révélations.",
    },
    "turns": [
        {  # turn 1: first player 0
            "reveals": [
                ("cond-blue-1", "species-ortie:1"),
                ("cond-yellow-1", "species-ortie:2"),
                ("species-ortie", "species-ortie"),
                ("cond-green-1", "species-jonc:2"),
            ],
            "say": {
                "program": {
                    "en": "The web starts with the four plants in the first column; each "
                    "needs two Conditions of the colours shown on its places. A hydric "
                    "Condition fits the Ortie or the Jonc.",
                    "fr": "Le réseau commence par les quatre plantes de la première "
                    "colonne ; chacune demande deux Conditions des couleurs de ses places. "
                    "Une Condition hydrique va sur l'Ortie ou le Jonc.",
                },
                "ready": {
                    "en": "Your card is face down: nobody knows it. You may still change "
                    "it until the reveal starts.",
                    "fr": "Votre carte est face cachée : personne ne la connaît. Vous "
                    "pouvez encore la changer jusqu'à la révélation.",
                },
                "reveal": {
                    "en": "You are the first player, so you reveal first. Two places take "
                    "your card: choose the Ortie, whose thermal Condition Ana may bring.",
                    "fr": "Vous êtes premier joueur : vous révélez en premier. Deux places "
                    "prennent votre carte : choisissez l'Ortie, dont Ana peut apporter la "
                    "Condition thermique.",
                },
            },
        },
        {  # turn 2: first player 1
            "reveals": [
                ("cond-blue-2", "species-jonc:1"),
                ("species-jonc", "species-jonc"),
                ("cond-yellow-2", "species-aubepine:1"),
                ("cond-green-2", "species-aubepine:2"),
            ],
            "say": {
                "program": {
                    "en": "Look at the web: the Ortie is installed, because its two "
                    "Conditions came before it in the reveal. The First Player card has "
                    "passed to Ana: this turn you reveal last.",
                    "fr": "Regardez le réseau : l'Ortie est installée, car ses deux "
                    "Conditions ont été révélées avant elle. La carte Premier joueur est "
                    "passée à Ana : ce tour-ci, vous révélez en dernier.",
                },
                "reveal": {
                    "en": "A geological Condition fits the Aubépine or the Chêne. Put it "
                    "on the Aubépine: with Chloé's thermal Condition it is complete.",
                    "fr": "Une Condition géologique va sur l'Aubépine ou le Chêne. "
                    "Posez-la sur l'Aubépine : avec la Condition thermique de Chloé, elle "
                    "est complète.",
                },
            },
        },
        {  # turn 3: first player 2
            "reveals": [
                ("species-aubepine", "species-aubepine"),
                ("cond-green-3", "species-chene:1"),
                ("cond-blue-3", None),
                ("cond-violet-1", "species-chene:2"),
            ],
            "say": {
                "program": {
                    "en": "Both hydric places of the plants are full, and the animals' "
                    "places open only when the two Species before them are installed. "
                    "Your hydric Condition has no place now: it will be discarded. Four "
                    "players hold 32 cards for 30 places, so the team may discard 2 and "
                    "still win; the counter by the discard pile shows them.",
                    "fr": "Les deux places hydriques des plantes sont prises, et les places "
                    "des animaux ne s'ouvrent que quand les deux Espèces avant eux sont "
                    "installées. Votre Condition hydrique n'a pas de place : elle sera "
                    "défaussée. À quatre, il y a 32 cartes pour 30 places : l'équipe peut "
                    "en défausser 2 et gagner encore ; le compteur près de la défausse les "
                    "montre.",
                },
            },
        },
        {  # turn 4: first player 3
            "reveals": [
                ("species-chene", "species-chene"),
                ("cond-yellow-3", "species-carabe-dore:1"),
                ("cond-violet-2", "species-carabe-dore:2"),
                ("species-carabe-dore", "species-carabe-dore"),
            ],
            "say": {
                "program": {
                    "en": "The Ortie and the Aubépine are installed one above the other: "
                    "the Carabe doré, the animal they hold up, is open. Chloé reveals "
                    "first this turn, then you.",
                    "fr": "L'Ortie et l'Aubépine sont installées l'une au-dessus de "
                    "l'autre : le Carabe doré, l'animal qu'elles portent, est ouvert. "
                    "Chloé révèle en premier ce tour-ci, puis vous.",
                },
                "reveal": {
                    "en": "Chloé's Chêne opened the Campagnol too. Put your thermal "
                    "Condition on the Carabe doré: Ana and Basile can finish it this turn.",
                    "fr": "Le Chêne de Chloé a aussi ouvert le Campagnol. Posez votre "
                    "Condition thermique sur le Carabe doré : Ana et Basile peuvent le "
                    "finir ce tour-ci.",
                },
            },
        },
        {  # turn 5: first player 0
            "reveals": [
                ("cond-violet-3", "species-mesange-bleue:1"),
                ("cond-green-4", "species-mesange-bleue:2"),
                ("species-mesange-bleue", "species-mesange-bleue"),
                ("cond-yellow-4", "species-campagnol:1"),
            ],
            "say": {
                "program": {
                    "en": "You are first player again. The only atmospheric place open is "
                    "the Mésange bleue's: your card has exactly one place, so it is placed "
                    "without asking.",
                    "fr": "Vous êtes de nouveau premier joueur. La seule place "
                    "atmosphérique ouverte est celle de la Mésange bleue : votre carte n'a "
                    "qu'une place, elle y est posée sans question.",
                },
            },
        },
        {  # turn 6: first player 1
            "reveals": [
                ("cond-blue-4", "species-campagnol:2"),
                ("species-campagnol", "species-campagnol"),
                ("cond-green-5", "species-herisson:1"),
                ("cond-blue-5", "species-herisson:2"),
            ],
            "say": {
                "program": {
                    "en": "The Carabe doré and the Mésange bleue opened the Hérisson, in "
                    "the third column. You reveal last: the hydric place left will be the "
                    "Hérisson's.",
                    "fr": "Le Carabe doré et la Mésange bleue ont ouvert le Hérisson, dans "
                    "la troisième colonne. Vous révélez en dernier : la place hydrique "
                    "restante sera celle du Hérisson.",
                },
            },
        },
        {  # turn 7: first player 2
            "reveals": [
                ("cond-violet-4", "species-martre:1"),
                ("cond-yellow-5", "species-martre:2"),
                ("species-herisson", "species-herisson"),
                ("species-martre", "species-martre"),
            ],
            "say": {
                "program": {
                    "en": "The Hérisson's two Conditions are in place: install it. A "
                    "Species is placed once its Conditions are there, in any order.",
                    "fr": "Les deux Conditions du Hérisson sont là : installez-le. Une "
                    "Espèce se pose dès que ses Conditions sont là, dans n'importe quel "
                    "ordre.",
                },
            },
        },
        {  # turn 8: first player 3
            "reveals": [
                ("joker-1", "species-aigle-royal:1", "blue"),
                ("cond-violet-5", "species-aigle-royal:2"),
                ("species-aigle-royal", "species-aigle-royal"),
                ("joker-2", None),
            ],
            "say": {
                "program": {
                    "en": "Last turn. The Aigle royal, at the top of the web, needs a "
                    "hydric and an atmospheric Condition. Chloé reveals first; play your "
                    "atmospheric Condition, and Ana holds the Aigle.",
                    "fr": "Dernier tour. L'Aigle royal, au sommet du réseau, demande une "
                    "Condition hydrique et une atmosphérique. Chloé révèle en premier ; "
                    "jouez votre Condition atmosphérique, Ana a l'Aigle.",
                },
            },
        },
    ],
}
