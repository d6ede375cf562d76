"""Qt models over a table's decision: the hands and the rulings, read-only views of what the
core computed."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from ..core.seats import SEAT_NAMES
from .i18n import Language

Index = QModelIndex | QPersistentModelIndex

HAND_COLUMNS = (
    "col_number",
    "col_dealer",
    "col_levels_before",
    "col_redeclarations",
    "col_defender_points",
    "col_bottom",
    "col_penalty",
    "col_total",
    "col_outcome",
    "col_levels_after",
)


class HandsModel(QAbstractTableModel):
    """One row per hand (副) of the round, as judged."""

    def __init__(self, language: Language) -> None:
        super().__init__()
        self.language = language
        self.case: dict[str, Any] = {}
        self.hands: list[dict[str, Any]] = []
        language.changed.connect(lambda *_: self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 9))

    def set_decision(self, case: dict[str, Any], decision: dict[str, Any]) -> None:
        self.beginResetModel()
        self.case = case
        self.hands = list(decision.get("hands") or [])
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.hands)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(HAND_COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.language.tr(HAND_COLUMNS[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        hand = self.hands[index.row()]
        case_hand = (self.case.get("hands") or [])[index.row()]
        column = HAND_COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(column, hand, case_hand)
        if role == Qt.ItemDataRole.ToolTipRole:
            return hand.get("text")
        if role == Qt.ItemDataRole.BackgroundRole and hand.get("in_progress"):
            return QColor("#fff8e1")
        if role == Qt.ItemDataRole.BackgroundRole and hand.get("lost_by"):
            return QColor("#ffebee")
        if role == Qt.ItemDataRole.TextAlignmentRole and column != "col_outcome":
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def cell(self, column: str, hand: dict[str, Any], case_hand: dict[str, Any]) -> str:
        lang = self.language.lang
        before, after = hand["levels_before"], hand["levels_after"]
        if column == "col_number":
            return str(hand["number"])
        if column == "col_dealer":
            # dealt as played by another seat than the rotation now gives: marked, the outcome says why
            return SEAT_NAMES[lang][hand["dealer"]] + (" *" if hand.get("dealer_by_rotation") else "")
        if column == "col_levels_before":
            return f"{before['NS']} : {before['EW']}"
        if hand.get("in_progress"):
            return self.language.tr("in_progress") if column == "col_outcome" else ""
        if column == "col_redeclarations":
            return str(case_hand.get("redeclarations", 0))
        if column == "col_defender_points":
            return str(case_hand.get("defender_points", 0))
        if column == "col_bottom":
            if not hand["bottom_multiplier"]:
                return "—"
            points = (case_hand.get("bottom") or {}).get("points", 0)
            return f"{points} × {hand['bottom_multiplier']}"
        if column == "col_penalty":
            return f"{hand['penalty_points']:+d}" if hand["penalty_points"] else ""
        if column == "col_total":
            return str(hand["defender_total"])
        if column == "col_outcome":
            return hand["text"]
        return f"{after['NS']} : {after['EW']}"


class RulingsModel(QAbstractTableModel):
    """Every ruling of the round, before play and hand by hand; voided ones struck through."""

    def __init__(self, language: Language) -> None:
        super().__init__()
        self.language = language
        self.rows: list[tuple[int | None, int, dict[str, Any]]] = []
        language.changed.connect(lambda *_: self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 2))

    def set_decision(self, decision: dict[str, Any]) -> None:
        self.beginResetModel()
        self.rows = [(None, i, r) for i, r in enumerate(decision.get("before_play") or [])]
        for h, hand in enumerate(decision.get("hands") or []):
            self.rows.extend((h, i, r) for i, r in enumerate(hand["rulings"]))
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 3

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.language.tr(("col_hand", "col_ruling", "col_clause")[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        hand_index, _, ruling = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return self.language.tr("before_play") if hand_index is None else str(hand_index + 1)
            if index.column() == 1:
                return ruling["text"]
            mark = " ⚠" if ruling.get("assumed") else ""
            return ruling["citation"] + mark
        if role == Qt.ItemDataRole.FontRole and ruling.get("voided"):
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and ruling.get("voided"):
            return QColor("#9e9e9e")
        if role == Qt.ItemDataRole.BackgroundRole and ruling.get("hand_lost") and not ruling.get("voided"):
            return QColor("#ffebee")
        if role == Qt.ItemDataRole.ToolTipRole:
            return ruling["text"]
        return None

    def position(self, row: int) -> tuple[int | None, int, dict[str, Any]]:
        return self.rows[row]
