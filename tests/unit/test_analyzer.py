"""Unit tests of the brain text analyser (normalisation, tokens, stems, document/query terms)."""

from __future__ import annotations

import pytest

from shared.search.analyzer import (
    MAX_QUERY_TOKENS,
    STOP_WORDS,
    document_terms,
    normalize,
    query_terms,
    tokenize,
    word_forms,
)


def forms(word: str) -> frozenset[str]:
    """All index terms of a single-word text, via the real pipeline (tokenize + word_forms)."""
    tokens = tokenize(word)
    assert len(tokens) == 1, f"{word!r} should be exactly one token, got {tokens}"
    return word_forms(tokens[0])


# --- normalize -----------------------------------------------------------------------------


def test_normalize_casefolds_and_turns_sharp_s_into_ss() -> None:
    # Given mixed case text with ß
    # When it is normalized
    result = normalize("Straße GROSS Müller")
    # Then it is casefolded, ß became "ss", and umlauts are kept as they are
    assert result == "strasse gross müller"


def test_normalize_applies_nfkc_compatibility_forms() -> None:
    # Given a ligature, full-width letters and a decomposed umlaut (u + combining diaeresis)
    text = "\ufb01le \uff21\uff22 mu\u0308ller"
    # When it is normalized
    result = normalize(text)
    # Then compatibility forms are replaced and the umlaut is composed into one character
    assert result == "file ab müller"


def test_normalize_changes_nothing_else() -> None:
    # Given text with punctuation, digits and extra whitespace
    text = "k-1001,  a/b_c!"
    # When it is normalized
    # Then punctuation and whitespace survive untouched
    assert normalize(text) == text


# --- tokenize ------------------------------------------------------------------------------


def test_tokenize_lowercases_and_keeps_umlauts_inside_words() -> None:
    # Given capitalised German words with umlauts and ß
    # When they are tokenized
    tokens = tokenize("Größe Verträge STRASSE")
    # Then each word is one lower-case token, ß folded to ss
    assert tokens == ["grösse", "verträge", "strasse"]


def test_tokenize_splits_on_hyphens_punctuation_slashes_and_underscores() -> None:
    # Given words glued together by various separators
    # When tokenized
    tokens = tokenize("Kunden-Nummer/Vertrag_Typ;Preis.Liste,Rabatt:Ende!(neu)")
    # Then every separator splits
    assert tokens == [
        "kunden",
        "nummer",
        "vertrag",
        "typ",
        "preis",
        "liste",
        "rabatt",
        "ende",
        "neu",
    ]


def test_tokenize_drops_single_letters_but_keeps_single_digits() -> None:
    # Given a customer number with a letter prefix and a lone digit
    # When tokenized
    tokens = tokenize("K-1001 Stufe 3 x y")
    # Then the lone letters vanish, while the number and the single digit stay
    assert tokens == ["1001", "stufe", "3"]


def test_tokenize_removes_german_and_english_stop_words() -> None:
    # Given sentences made mostly of function words
    # When tokenized
    german = tokenize("Der Kunde und die Verträge sind in der Datei oder ist das ein Fehler")
    english = tokenize("The customer and the contracts of a company to be in the file")
    # Then only the content words remain, in order
    assert german == ["kunde", "verträge", "datei", "fehler"]
    assert english == ["customer", "contracts", "company", "file"]


def test_stop_word_list_is_modest_and_normalized() -> None:
    # Given the built-in stop word list
    # Then it stays small and holds only normalized entries (so lookups on tokens work)
    assert 60 <= len(STOP_WORDS) <= 120
    assert all(normalize(word) == word for word in STOP_WORDS)
    # And words that carry meaning in one of the languages are not stop words
    assert {"it", "war", "man", "hat"}.isdisjoint(STOP_WORDS)


def test_tokenize_of_empty_or_separator_only_text_is_empty() -> None:
    # Given texts without any word
    # Then there are no tokens
    assert tokenize("") == []
    assert tokenize(" -- / __ ;; ") == []
    assert tokenize("und oder the and") == []


def test_tokenize_handles_non_latin_letters() -> None:
    # Given Unicode letters from other scripts
    # When tokenized
    # Then they are letters too, not separators
    assert tokenize("Ελλάδα Москва café") == ["ελλάδα", "москва", "café"]


# --- word_forms: folding -------------------------------------------------------------------


def test_mueller_variants_share_an_index_term() -> None:
    # Given three spellings of the same name
    # When they are analysed
    mueller, mueller_ue, muller = forms("Müller"), forms("Mueller"), forms("muller")
    # Then all three share at least one term (the German stem "mull")
    assert mueller & mueller_ue & muller
    assert "mull" in mueller & mueller_ue & muller


def test_strasse_and_strasse_with_sharp_s_are_identical() -> None:
    # Given ß and ss spellings
    # Then they analyse to the very same terms
    assert forms("Straße") == forms("Strasse")
    assert forms("Straße") == forms("STRASSE")


def test_groesse_variants_share_an_index_term() -> None:
    # Given umlaut+ß and transliterated spellings
    # Then they share the German stem
    assert "gross" in forms("Größe") & forms("Groesse")


def test_case_does_not_change_terms() -> None:
    # Given the same word in different case
    # Then the terms are identical
    assert forms("KUNDE") == forms("Kunde") == forms("kunde")
    assert forms("Customer") == forms("CUSTOMER")


def test_english_stem_folds_diacritics() -> None:
    # Given words with accents (which the English stemmer would keep)
    # When analysed
    # Then one of the terms is accent-free
    assert "cafe" in forms("Café")
    assert "naiv" in forms("naïve")
    # And the German umlaut folds to the bare vowel for the English stem
    assert "muller" in forms("Müller")


# --- word_forms: word forms ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("singular", "plural"),
    [
        ("Kunde", "Kunden"),
        ("Produkt", "Produkte"),
        ("Vertrag", "Verträge"),
        ("Rechnung", "Rechnungen"),
    ],
)
def test_german_word_forms_share_a_term(singular: str, plural: str) -> None:
    # Given German singular and plural
    # When analysed
    # Then they share a term
    assert forms(singular) & forms(plural)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("customer", "customers"),
        ("running", "runs"),
        ("invoice", "invoices"),
    ],
)
def test_english_word_forms_share_a_term(first: str, second: str) -> None:
    # Given English inflected forms
    # When analysed
    # Then they share a term
    assert forms(first) & forms(second)


def test_unrelated_words_share_no_term() -> None:
    # Given unrelated words
    # Then their terms are disjoint (stemming does not conflate everything)
    assert not forms("Kunde") & forms("Produkt")
    assert not forms("Vertrag") & forms("Rechnung")
    assert not forms("customer") & forms("invoice")


def test_word_forms_has_german_and_english_stem() -> None:
    # Given a German plural the English stemmer does not know
    # When analysed
    terms = word_forms("kunden")
    # Then both stems are present: German "kund", English leaves "kunden"
    assert terms == frozenset({"kund", "kunden"})


def test_word_forms_collapses_equal_stems_into_one_term() -> None:
    # Given a word both stemmers reduce identically
    # Then there is a single term
    assert word_forms("customers") == frozenset({"custom"})


def test_digit_tokens_map_to_themselves() -> None:
    # Given pure-digit tokens
    # Then they are their own single term
    assert word_forms("1001") == frozenset({"1001"})
    assert word_forms("2024") == frozenset({"2024"})
    assert word_forms("7") == frozenset({"7"})


def test_word_forms_is_cached() -> None:
    # Given the cached analyser
    word_forms.cache_clear()
    # When the same token is analysed twice
    first = word_forms("verträge")
    second = word_forms("verträge")
    # Then the second call is a cache hit returning the same object, and the cache is bounded
    info = word_forms.cache_info()
    assert first is second
    assert info.hits >= 1
    assert info.maxsize is not None


# --- document_terms ------------------------------------------------------------------------


def test_document_terms_weights_title_tokens() -> None:
    # Given a title word and a body word
    # When the document is analysed with the default title weight
    terms, length = document_terms("Vertrag", "Rechnung")
    # Then the title term counts 3 times, the body term once
    assert terms == {"vertrag": 3, "rechnung": 1}
    assert length == 4


def test_document_terms_custom_title_weight_and_repeated_words() -> None:
    # Given a word in the title and twice in the body
    # When analysed with title weight 5
    terms, length = document_terms("Kunde", "Kunde kunde Produkt", title_weight=5)
    # Then the frequencies add up per token and the length counts weights per token
    assert terms == {"kund": 7, "produkt": 1}
    assert length == 5 + 1 + 1 + 1


def test_document_terms_token_adds_weight_to_each_of_its_terms_once() -> None:
    # Given a token with two different stems (kunden -> kund / kunden) in the title
    # When analysed
    terms, length = document_terms("Kunden", "")
    # Then each term gets the full weight, but the length counts the token once
    assert terms == {"kund": 3, "kunden": 3}
    assert length == 3


def test_document_terms_ignores_stop_words_in_length() -> None:
    # Given a text with stop words and single letters
    # When analysed
    terms, length = document_terms("Der Kunde", "und die a b Kunden")
    # Then neither contributes to terms or length
    assert terms == {"kund": 4, "kunden": 1}
    assert length == 4


def test_document_terms_of_empty_document() -> None:
    # Given an empty entry
    # Then it has no terms and length 0
    assert document_terms("", "") == ({}, 0)


def test_document_terms_rejects_non_positive_title_weight() -> None:
    # Given an invalid title weight
    # Then analysis refuses it
    with pytest.raises(ValueError, match="title_weight"):
        document_terms("Kunde", "Text", title_weight=0)


def test_document_and_query_terms_meet_across_spellings() -> None:
    # Given a document written with umlauts and ß
    terms, _ = document_terms("Müller GmbH", "Lieferung an die Hauptstraße, Größe XL")
    # When queried with transliterated spellings
    groups = query_terms("Mueller Groesse")
    # Then every query group finds one of its terms in the document
    assert len(groups) == 2
    assert all(group & terms.keys() for group in groups)


# --- query_terms ---------------------------------------------------------------------------


def test_query_terms_one_group_per_token_in_order() -> None:
    # Given a query of three content words and a stop word
    # When analysed
    groups = query_terms("Verträge der Kunden 2024")
    # Then there is one group per content word, in query order
    assert groups == [
        word_forms("verträge"),
        word_forms("kunden"),
        frozenset({"2024"}),
    ]


def test_query_terms_deduplicates_repeated_tokens() -> None:
    # Given a query repeating a word in different case and spelling
    # When analysed
    groups = query_terms("Straße strasse STRASSE Kunde kunde")
    # Then each word appears once, at its first position
    assert groups == [word_forms("strasse"), word_forms("kunde")]


def test_query_terms_keeps_at_most_max_query_tokens_groups() -> None:
    # Given a query of more distinct words than allowed
    words = [f"{n}" for n in range(1000, 1000 + MAX_QUERY_TOKENS + 10)]
    # When analysed
    groups = query_terms(" ".join(words))
    # Then only the first MAX_QUERY_TOKENS words survive
    assert MAX_QUERY_TOKENS == 32
    assert len(groups) == MAX_QUERY_TOKENS
    assert groups[0] == frozenset({"1000"})
    assert groups[-1] == frozenset({str(1000 + MAX_QUERY_TOKENS - 1)})


def test_query_terms_limit_counts_distinct_tokens() -> None:
    # Given many repetitions followed by distinct words
    words = ["kunde"] * 50 + [str(n) for n in range(MAX_QUERY_TOKENS)]
    # When analysed
    groups = query_terms(" ".join(words))
    # Then duplicates do not use up the limit
    assert len(groups) == MAX_QUERY_TOKENS
    assert groups[0] == word_forms("kunde")
    assert groups[1] == frozenset({"0"})


def test_query_of_stop_words_only_is_empty() -> None:
    # Given a query without content words
    # Then there are no groups
    assert query_terms("der die das the and of") == []
    assert query_terms("") == []
