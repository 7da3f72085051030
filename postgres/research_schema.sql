-- The research results' tables: the optional SQL schema of
-- shared/seeds/research-agent-data-model.md (requests, plans,
-- sub-questions, search results, facts, discrepancies, narrative reports
-- and their sections, with the junction tables fact_discrepancies and
-- section_facts), as sqlite.Research keeps them. Ids are text: the
-- agent's are UUIDs, but the store keeps whatever ids a valid result
-- carries. Lists that are read only whole (a discrepancy's sides, a
-- search result's fact ids, the ambiguities, a report's limitations) are
-- jsonb. Deleting a request cascades to everything it produced.
-- Idempotent: OpenResearch runs it at every start whose schema differs
-- from the one recorded in quarry_schema, under an advisory lock.

CREATE TABLE IF NOT EXISTS research_requests (
    id text PRIMARY KEY,
    query text NOT NULL CONSTRAINT research_query_length CHECK (char_length(query) BETWEEN 10 AND 500),
    depth_level text NOT NULL CONSTRAINT research_depth_level CHECK (depth_level IN ('quick', 'standard', 'comprehensive')),
    -- The asking user's id; '' for a research nobody owns (the CLI over
    -- a folder).
    user_id text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    status text NOT NULL CONSTRAINT research_status CHECK (status IN ('planning', 'executing', 'verifying', 'synthesizing', 'completed', 'failed')),
    completion_time_seconds double precision,
    error text NOT NULL DEFAULT '',
    ambiguities jsonb NOT NULL DEFAULT '[]',
    answer text NOT NULL DEFAULT ''
);
-- List: a user's requests, or everyone's, newest first.
CREATE INDEX IF NOT EXISTS idx_research_requests_user ON research_requests (user_id, created_at DESC, id);
CREATE INDEX IF NOT EXISTS idx_research_requests_created ON research_requests (created_at DESC, id);

CREATE TABLE IF NOT EXISTS research_plans (
    id text PRIMARY KEY,
    request_id text NOT NULL UNIQUE REFERENCES research_requests(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    estimated_time_seconds integer NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS sub_questions (
    id text PRIMARY KEY,
    plan_id text NOT NULL REFERENCES research_plans(id) ON DELETE CASCADE,
    text text NOT NULL CONSTRAINT sub_question_text_length CHECK (char_length(text) BETWEEN 10 AND 200),
    priority integer NOT NULL CONSTRAINT sub_question_priority CHECK (priority BETWEEN 1 AND 10),
    parent_question_id text REFERENCES sub_questions(id) ON DELETE CASCADE,
    depth integer NOT NULL CONSTRAINT sub_question_depth CHECK (depth BETWEEN 0 AND 3),
    status text NOT NULL CONSTRAINT sub_question_status CHECK (status IN ('pending', 'searching', 'completed', 'failed')),
    aspect text NOT NULL DEFAULT '',
    position integer NOT NULL,
    CONSTRAINT sub_questions_unique_priority UNIQUE (plan_id, priority)
);
CREATE INDEX IF NOT EXISTS idx_sub_questions_parent ON sub_questions (parent_question_id);
CREATE INDEX IF NOT EXISTS idx_sub_questions_plan ON sub_questions (plan_id, position);

CREATE TABLE IF NOT EXISTS search_results (
    id text PRIMARY KEY,
    request_id text NOT NULL REFERENCES research_requests(id) ON DELETE CASCADE,
    sub_question_id text NOT NULL REFERENCES sub_questions(id) ON DELETE CASCADE,
    url text NOT NULL,
    title text NOT NULL CONSTRAINT search_result_title_length CHECK (char_length(title) BETWEEN 1 AND 200),
    content text NOT NULL CONSTRAINT search_result_content_length CHECK (char_length(content) <= 10000),
    domain text NOT NULL,
    access_timestamp timestamptz NOT NULL,
    credibility_score double precision NOT NULL CONSTRAINT search_result_credibility CHECK (credibility_score BETWEEN 0 AND 1),
    published timestamptz,
    extracted_facts jsonb NOT NULL DEFAULT '[]',
    position integer NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_search_results_domain ON search_results (domain);
CREATE INDEX IF NOT EXISTS idx_search_results_request ON search_results (request_id, position);
CREATE INDEX IF NOT EXISTS idx_search_results_sub_question ON search_results (sub_question_id);

CREATE TABLE IF NOT EXISTS discrepancies (
    id text PRIMARY KEY,
    request_id text NOT NULL REFERENCES research_requests(id) ON DELETE CASCADE,
    topic text NOT NULL,
    sides jsonb NOT NULL,
    strategy text NOT NULL CONSTRAINT discrepancy_strategy CHECK (strategy IN ('recency', 'credibility', 'consensus', 'uncertainty')),
    preferred text NOT NULL DEFAULT '',
    resolution text NOT NULL DEFAULT '',
    resolution_confidence double precision NOT NULL CONSTRAINT discrepancy_resolution_confidence CHECK (resolution_confidence BETWEEN 0 AND 1),
    created_at timestamptz NOT NULL,
    position integer NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_discrepancies_request ON discrepancies (request_id, position);

CREATE TABLE IF NOT EXISTS facts (
    id text PRIMARY KEY,
    request_id text NOT NULL REFERENCES research_requests(id) ON DELETE CASCADE,
    text text NOT NULL CONSTRAINT fact_text_length CHECK (char_length(text) BETWEEN 10 AND 500),
    source_url text NOT NULL,
    source_id text NOT NULL REFERENCES search_results(id) ON DELETE CASCADE,
    source_title text NOT NULL DEFAULT '',
    confidence double precision NOT NULL CONSTRAINT fact_confidence CHECK (confidence BETWEEN 0 AND 1),
    section text NOT NULL DEFAULT '',
    extraction_timestamp timestamptz NOT NULL,
    verified boolean NOT NULL DEFAULT false,
    discrepancy_id text REFERENCES discrepancies(id) ON DELETE SET NULL,
    sub_question_id text NOT NULL DEFAULT '',
    subject text NOT NULL DEFAULT '',
    entity text NOT NULL DEFAULT '',
    attribute text NOT NULL DEFAULT '',
    value text NOT NULL DEFAULT '',
    passage text NOT NULL DEFAULT '',
    position integer NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_facts_source ON facts (source_url);
CREATE INDEX IF NOT EXISTS idx_facts_request ON facts (request_id, position);
CREATE INDEX IF NOT EXISTS idx_facts_source_id ON facts (source_id);
CREATE INDEX IF NOT EXISTS idx_facts_discrepancy ON facts (discrepancy_id);

CREATE TABLE IF NOT EXISTS fact_discrepancies (
    fact_id text NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
    discrepancy_id text NOT NULL REFERENCES discrepancies(id) ON DELETE CASCADE,
    position integer NOT NULL,
    PRIMARY KEY (fact_id, discrepancy_id)
);
CREATE INDEX IF NOT EXISTS idx_fact_discrepancies_discrepancy ON fact_discrepancies (discrepancy_id, position);

CREATE TABLE IF NOT EXISTS narrative_reports (
    id text PRIMARY KEY,
    request_id text NOT NULL UNIQUE REFERENCES research_requests(id) ON DELETE CASCADE,
    executive_summary text NOT NULL,
    total_word_count integer NOT NULL,
    total_sources integer NOT NULL,
    generated_at timestamptz NOT NULL,
    quality_score double precision NOT NULL CONSTRAINT report_quality_score CHECK (quality_score BETWEEN 0 AND 1),
    limitations jsonb NOT NULL DEFAULT '[]'
);

CREATE TABLE IF NOT EXISTS report_sections (
    id text PRIMARY KEY,
    report_id text NOT NULL REFERENCES narrative_reports(id) ON DELETE CASCADE,
    title text NOT NULL,
    content text NOT NULL,
    "order" integer NOT NULL CONSTRAINT report_section_order CHECK ("order" BETWEEN 1 AND 10)
);
CREATE INDEX IF NOT EXISTS idx_report_sections_report ON report_sections (report_id, "order");

CREATE TABLE IF NOT EXISTS section_facts (
    section_id text NOT NULL REFERENCES report_sections(id) ON DELETE CASCADE,
    fact_id text NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
    citation_order integer NOT NULL,
    PRIMARY KEY (section_id, fact_id)
);
CREATE INDEX IF NOT EXISTS idx_section_facts_fact ON section_facts (fact_id);
