-- The retrieval index: one row per chunk, searched with the Porter stemmer
-- over unicode61 words. The default token characters serve identifiers:
-- queries quote each term, so "app_version" and "5.2" become phrases that
-- match the tokens side by side, while a sentence's final dot stays out of
-- its last word.
--
-- scope is indexed too, so that a search can narrow the match to one
-- scope's rows inside FTS5 (scope : "...") instead of ranking every
-- matching row of every scope and filtering afterwards; bm25() gives it
-- weight 0. ref is stored, not searched.
CREATE VIRTUAL TABLE chunks USING fts5(
	scope,
	ref UNINDEXED,
	title,
	text,
	tokenize = 'porter unicode61'
);
