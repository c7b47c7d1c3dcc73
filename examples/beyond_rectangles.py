"""Beyond the rectangle: any graph, tori, cylinders, 3-D boards and masked boards.

Prints a few facts and, given a folder, writes the pictures of docs/graphs.md,
docs/topology.md and docs/masks.md into it (seeded, so the same files each time).

Run: .venv/bin/python examples/beyond_rectangles.py [FOLDER]   (e.g. docs/images)
"""

from __future__ import annotations

import sys
from pathlib import Path

import networkx as nx
import numpy as np

import knightgraph as kg
from knightgraph.boards.masks import board_from_array, board_from_text
from knightgraph.boards.topology import topology_board
from knightgraph.draw import draw_tour, save_figure
from knightgraph.draw.shapeplot import draw_graph_tour


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    pictures = {}

    petersen = nx.petersen_graph()
    path = kg.find_tour(petersen)
    cycle = kg.tour_exists(petersen, closed=True)
    print("Petersen graph: a Hamiltonian path", path.tour.nodes())
    print("  and no Hamiltonian cycle:", cycle.certificate.kind, "-", cycle.reason)
    print(
        "dodecahedron:", kg.count_tours(nx.dodecahedral_graph(), closed=True).undirected, "cycles"
    )
    pictures["graph_petersen_path.png"] = draw_graph_tour(path.tour, numbers=True)

    torus = kg.find_tour(topology_board(8, 8, wrap="both"), closed=True, start="a1")
    print("8x8 torus, closed tour from a1:", " ".join(torus.tour.algebraic()[:8]), "...")
    pictures["topology_torus_8x8.png"] = draw_graph_tour(torus.tour)
    cylinder = kg.find_tour(topology_board(3, 6, wrap="cols"), closed=True)
    print("3x6 cylinder:", cylinder.status.value, "(a flat 3x6 board has no closed tour)")
    pictures["topology_cylinder_3x6.png"] = draw_graph_tour(cylinder.tour, numbers=True)
    cube = kg.find_tour(topology_board(4, 4, levels=4), closed=True)
    print("4x4x4 board, 3-D knight:", cube.status.value)
    pictures["topology_cube_4x4x4.png"] = draw_graph_tour(cube.tour)
    counted = kg.count_tours(topology_board(4, 4, wrap="both"), closed=True)
    print("4x4 torus (the 4-cube):", counted.undirected, "closed tours")

    small = board_from_text("..#...\n......\n......\n....#.\n......")
    res = kg.tour_exists(small)
    print("a 5x6 mask with two holes:", res.status.value, res.reason or "(a tour)")
    y, x = np.mgrid[-34:35, -34:35]
    disc = board_from_array(x * x + y * y <= 34 * 34)  # 1,813 and 1,812 squares of each colour
    res = kg.find_tour(disc, seed=0)
    print("disc of radius 34:", res.status.value, res.method)
    if res.found:
        pictures["mask_disc_34.png"] = draw_tour(res.tour)
    y, x = np.mgrid[-30:31, -30:31]
    res = kg.find_tour(board_from_array(x * x + y * y <= 900))
    print("disc of radius 30:", res.status.value, "-", res.reason)
    if folder is not None:
        for name, ax in pictures.items():
            save_figure(ax, folder / name)
            print("wrote", folder / name)


if __name__ == "__main__":
    main()
