"""Checking a whole draft (issue #28): its sentences with their locations (``drafts``), the sentences worth checking
(``claims``) and how well they are found (``score``). Checking the claims against the library comes later."""
