"""The table's words as the voice says them: the same sentences the screen shows, without the
marks a speech synthesiser reads out as words ("right arrow", "roman two") or skips without a
pause. Pure: no Kivy, no sound."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

RANGE_WORDS = {"en": "to", "de": "bis", "fr": "à"}
"""How "3–4" is said: espeak-ng would say "three four"."""

ROMAN = re.compile(r"\b(?=[IVX])(X{0,3})(IX|IV|V?I{0,3})\b")
"""A roman numeral up to 39 (terror levels, invader stages), as a whole word."""
LEVEL_BEFORE = re.compile(r"(?i)(level|stage|stufe|stadium|niveau|phase|terror|terreur|"
                          r"schrecken)\s*$")
"""A word after which even a one-letter numeral is a number ("level I", "Stufe I", "niveau
I"): elsewhere "I" is a word of its own."""
MARKUP = re.compile(r"\[/?(?:b|i|u|s|color|size|font|ref|sub|sup)(?:=[^\]]*)?\]")
"""Kivy's markup tags, which espeak-ng would spell out."""
PAUSES = re.compile(r"\s*[→←⇒·•|]+\s*")
"""Marks between parts of a line: a short pause."""
RANGE = re.compile(r"(\d)\s*[–—-]\s*(\d)")
HEADLINE_CHARS = 80
"""The longest line said: about five seconds of espeak-ng at its usual pace. A longer one is
said up to the end of a clause that fits (the screen shows the rest): a line said over the
table's talk is listened to for its head, and a new one cuts it off anyway."""
REMARK = re.compile(r"\s*\([^()]*\)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
JOINS = re.compile(r"\s(?:and|then|or|und|dann|oder|et|puis|ou)\s")
"""Where a sentence without a clause that fits may be cut: before "and" its first part is whole."""
ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}


def roman_value(numeral: str) -> int:
    """The value of a well-formed roman numeral (checked by `ROMAN`)."""
    total = 0
    for letter, following in zip(numeral, [*numeral[1:], ""], strict=True):
        value = ROMAN_VALUES[letter]
        total += -value if following and ROMAN_VALUES[following] > value else value
    return total


def digits_for_numerals(text: str) -> str:
    """Roman numerals as digits, which espeak-ng reads as numbers in every language ("level
    II" is "level roman two" to it): numerals of two letters or more anywhere, one letter only
    after a level word."""

    def number(match: re.Match[str]) -> str:
        numeral = match.group(0)
        if not numeral:
            return numeral
        if len(numeral) == 1 and not LEVEL_BEFORE.search(text[:match.start()]):
            return numeral
        return str(roman_value(numeral))

    return ROMAN.sub(number, text)


def without_symbols(text: str) -> str:
    """Drop what is drawn rather than said: markup, arrows and bullets (a pause instead),
    "×" after a count, pictographs."""
    text = MARKUP.sub("", text)
    text = PAUSES.sub(", ", text)
    text = text.replace("×", " ").replace("…", "")
    kept = "".join(letter for letter in text
                   if unicodedata.category(letter) not in ("So", "Cs", "Co"))
    kept = re.sub(r"\s+", " ", kept)
    kept = re.sub(r"\s*,(\s*,)+", ",", kept)  # two marks in a row: one pause
    kept = re.sub(r",\s*([.:;!?])", r"\1", kept)
    return kept.strip(" ,")


def headline(text: str, most: int = HEADLINE_CHARS) -> str:
    """The head of a line, as it is said: without remarks in brackets, its first sentence, and
    of a longer one the clauses that fit in `most` characters."""
    text = REMARK.sub("", text).strip()
    text = SENTENCE_END.split(text, maxsplit=1)[0]
    if len(text) <= most:
        return text
    fits = text[:most + 1]
    semicolons = [match.start() for match in re.finditer(";", fits)]
    clauses = [match.start() for match in re.finditer(r"[,;:]", fits)]
    joins = [match.start() for match in JOINS.finditer(fits)]
    for ends, words in ((semicolons, 2), (clauses, 2), (joins, 3), (clauses, 1)):  # best first
        fitting = [end for end in ends if len(text[:end].split()) >= words]
        if fitting:
            return text[:fitting[-1]]
    return text[:most].rsplit(" ", 1)[0]


def speech_text(text: str, language: str = "en") -> str:
    """One line of the table's, as it is said in `language`: its head (`headline`), without
    symbols, numerals as numbers."""
    text = headline(without_symbols(text))
    text = RANGE.sub(rf"\1 {RANGE_WORDS.get(language, RANGE_WORDS['en'])} \2", text)
    return digits_for_numerals(text)


def sentence(text: str) -> str:
    """`text` ending in a stop, so that the next line is said after a pause."""
    text = text.rstrip()
    return text if not text or text[-1] in ".!?:;" else f"{text}."


def spoken(lines: Iterable[str], language: str = "en") -> str:
    """Several lines said one after another, each a sentence of its own."""
    said = (sentence(speech_text(line, language)) for line in lines)
    return " ".join(line for line in said if line)


def short_prompt(prompt: str) -> str:
    """A step's prompt as it is said when the step begins: its first paragraph (a fear
    card's effect or a note below it is on the screen to read); `spoken` says its head."""
    return prompt.strip().split("\n\n", 1)[0].replace("\n", " ").strip()
