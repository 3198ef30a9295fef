"""How the tutorial writes for a reader: the rules every sentence it prints follows, on the lowest
floor of the tutorial's side, so the checker's messages, the drawings' notes and the page's step
through backward can all use them without importing each other."""
