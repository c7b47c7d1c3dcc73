"""Boards: squares and their names, rectangles with removed squares, tori, cylinders, 3-D
boards, masks, any networkx graph, and the knight graph of each."""
