"""Helpers shared by the stage scripts: the game registry, file handling, inference and the batched search."""
