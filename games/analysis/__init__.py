"""The analysis of finished games and the hint, for any game kind that offers them
(``games.kinds.Analyst``): a platform app of its own (models, services, task, pages, API).

``services`` checks and stores (one ``Analysis`` per game and player, a daily limit per
user, no analysis while a game runs, no hint in rated or event games); ``tasks`` runs the
kind's reviews in a Celery worker, storing the progress after each decision; ``views``
and ``api`` are thin; ``summary`` turns stored reviews into what pages and API show.
"""
