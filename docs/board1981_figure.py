"""Draw the default trustme_1981 board graph to ``docs/games/board1981_board.png`` (a committed source asset).

Run from the repository root after changing ``trustme_analysis/games/board1981/engine/board.toml``:
``python docs/board1981_figure.py [BOARD.toml] [OUT.png]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from trustme_analysis.games.board1981.engine.board import DEFAULT_BOARD, load_board  # noqa: E402

STREET_COLORS = ("#c0182f", "#2e8b3a", "#d4a017", "#3b5bb5")
KIND_STYLE = {
    "white": ("white", "o", 70),
    "hot_tip": ("#ff9f1c", "*", 220),
    "wild_goose_chase": ("#7a7a7a", "s", 120),
    "company": ("black", "D", 260),
}


def draw(board_path: str = DEFAULT_BOARD, out: str = "docs/games/board1981_board.png") -> None:
    """Draw the board at ``board_path`` into the PNG ``out``."""
    board = load_board(board_path)
    pos = board.positions
    if any(p is None for p in pos):
        raise SystemExit("every space needs pos = [x, y] to be drawn")
    fig, ax = plt.subplots(figsize=(8, 8.6), dpi=100)
    for s, nbrs in enumerate(board.neighbours):
        for t in nbrs:
            if s < t:
                ax.plot([pos[s][0], pos[t][0]], [pos[s][1], pos[t][1]], color="#999999", lw=1, zorder=1)
    for s, kind in enumerate(board.kinds):
        x, y = pos[s]
        if kind == "property":
            q = board.space_property[s]
            color = STREET_COLORS[board.property_street[q] % len(STREET_COLORS)]
            ax.scatter([x], [y], s=90, c=color, marker="o", edgecolors="black", linewidths=0.5, zorder=2)
        else:
            color, marker, size = KIND_STYLE[kind]
            ax.scatter([x], [y], s=size, c=color, marker=marker, edgecolors="black", linewidths=0.5, zorder=2)
    for q, spaces in enumerate(board.property_spaces):
        mid = spaces[len(spaces) // 2]
        x, y = pos[mid]
        # Labels go outside the loop, away from the centre of the board.
        ax.annotate(board.property_names[q], (x, y), xytext=(x * 1.14, y * 1.14), fontsize=6, ha="center", va="center")
    for s, kind in enumerate(board.kinds):
        if kind == "hot_tip":
            area = board.streets[board.hot_tip_area[s]]
            x, y = pos[s]
            ax.annotate(f"Hot Tip: {area}", (x, y), xytext=(x * 0.8, y * 0.8), fontsize=6, ha="center", color="#b36b00")
    ax.annotate("Trust Me\nInvestment Company", pos[board.company], xytext=(0, -1.3), fontsize=7, ha="center")
    handles = [
        plt.Line2D([], [], ls="", marker="o", color=c, label=f"{street} (colored spaces)")
        for street, c in zip(board.streets, STREET_COLORS)
    ]
    handles += [
        plt.Line2D([], [], ls="", marker=KIND_STYLE[k][1], color=KIND_STYLE[k][0], markeredgecolor="black", label=lab)
        for k, lab in (("white", "white space"), ("hot_tip", "Hot Tip"), ("wild_goose_chase", "Wild Goose Chase"))
    ]
    ax.legend(handles=handles, loc="upper center", fontsize=7, bbox_to_anchor=(0.5, -0.05), ncol=3, frameon=False)
    ax.set_title(board.name, fontsize=9, pad=24)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)


if __name__ == "__main__":
    draw(*sys.argv[1:3])
