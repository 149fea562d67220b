"""The rule lab: what a rule change does to the game, measured."""
