-- The data rooms' tables (shared/seeds/data-room-qa-data-model.md), their
-- checks and cascades, the full-text and vector indexes, and the
-- row-level security policies. Idempotent: OpenRooms runs it at every
-- start whose schema differs from the one recorded in quarry_schema,
-- under an advisory lock. pgvector must be installed.

CREATE TABLE IF NOT EXISTS users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL,
    email text NOT NULL DEFAULT '',
    password_hash text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS users_name ON users (lower(name));

CREATE TABLE IF NOT EXISTS api_tokens (
    token_hash text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS ended_sessions (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_ended_sessions_expiry ON ended_sessions (expires_at);

-- Failed sign-ins by key (a user name's or a client's, hashed by the
-- service) since the first of the window, so that every server of the
-- store and a restart honour a lockout. Like users, it belongs to no
-- room and has no row-level security.
CREATE TABLE IF NOT EXISTS login_failures (
    key text PRIMARY KEY,
    failures integer NOT NULL CHECK (failures > 0),
    since timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_login_failures_since ON login_failures (since);

CREATE TABLE IF NOT EXISTS data_rooms (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL,
    description text NOT NULL DEFAULT '',
    created_by uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- A room's name is unique per creator, not across the store, so that
-- creating a room cannot tell whether someone else has one of that name
-- (a store made before keeps its names, which are unique either way).
DROP INDEX IF EXISTS data_rooms_name;
CREATE UNIQUE INDEX IF NOT EXISTS data_rooms_creator_name ON data_rooms (created_by, lower(name));

CREATE TABLE IF NOT EXISTS data_room_members (
    data_room_id uuid NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role varchar(20) NOT NULL CONSTRAINT member_role_owner_editor_or_viewer CHECK (role IN ('owner', 'editor', 'viewer')),
    added_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (data_room_id, user_id)
);
CREATE INDEX IF NOT EXISTS idx_members_user ON data_room_members(user_id, data_room_id);

CREATE TABLE IF NOT EXISTS documents (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    data_room_id uuid NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    name text NOT NULL,
    format varchar(20) NOT NULL,
    size_bytes bigint NOT NULL,
    sha256 varchar(64) NOT NULL,
    processing_status varchar(50) NOT NULL
        CONSTRAINT document_status_pending_processing_completed_or_failed
        CHECK (processing_status IN ('pending', 'processing', 'completed', 'failed')),
    error_code varchar(50) NOT NULL DEFAULT '',
    error_message text NOT NULL DEFAULT '',
    ocr_attempted boolean NOT NULL DEFAULT false,
    page_count integer NOT NULL DEFAULT 0 CHECK (page_count >= 0),
    chunk_count integer NOT NULL DEFAULT 0 CHECK (chunk_count >= 0),
    avg_chunk_size integer NOT NULL DEFAULT 0 CHECK (avg_chunk_size >= 0),
    metadata jsonb NOT NULL DEFAULT '{}',
    notes jsonb NOT NULL DEFAULT '[]',
    uploaded_by uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    -- chunks name their room too, and must name the document's
    UNIQUE (id, data_room_id)
);
CREATE INDEX IF NOT EXISTS idx_documents_room ON documents(data_room_id, created_at);
CREATE INDEX IF NOT EXISTS idx_documents_pending ON documents(created_at) WHERE processing_status IN ('pending', 'processing');
-- The model a document must be embedded with, its round of processing
-- (each hand-back starts the next, queued once), and the lease of the
-- worker processing it: a lease that runs out means the worker died.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS embedding_model varchar(100) NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN IF NOT EXISTS round integer NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS lease_holder text NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN IF NOT EXISTS lease_until timestamptz;

CREATE TABLE IF NOT EXISTS document_pages (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page_number integer NOT NULL CONSTRAINT page_number_from_1 CHECK (page_number > 0),
    text_content text NOT NULL DEFAULT '',
    ocr_confidence decimal(3,2) CONSTRAINT page_ocr_confidence_0_to_1 CHECK (ocr_confidence BETWEEN 0 AND 1),
    layout_data jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- the specification's idx_doc_pages_document, unique
    CONSTRAINT page_number_once_per_document UNIQUE (document_id, page_number)
);

CREATE TABLE IF NOT EXISTS document_chunks (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    document_id uuid NOT NULL,
    data_room_id uuid NOT NULL,
    page_id uuid NOT NULL REFERENCES document_pages(id) ON DELETE CASCADE,
    chunk_index integer NOT NULL CONSTRAINT chunk_index_from_0 CHECK (chunk_index >= 0),
    text_content text NOT NULL CONSTRAINT chunk_text_50_to_3000_characters CHECK (char_length(text_content) BETWEEN 50 AND 3000),
    context text NOT NULL DEFAULT '',
    token_count integer NOT NULL CONSTRAINT chunk_tokens_1_to_1000 CHECK (token_count > 0 AND token_count <= 1000),
    start_char integer NOT NULL,
    end_char integer NOT NULL,
    embedding vector,
    embedding_model varchar(100) NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT chunk_end_after_start CHECK (end_char > start_char),
    CONSTRAINT chunk_index_once_per_document UNIQUE (document_id, chunk_index),
    FOREIGN KEY (document_id, data_room_id) REFERENCES documents(id, data_room_id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_chunks_document ON document_chunks(document_id);
CREATE INDEX IF NOT EXISTS idx_chunks_page ON document_chunks(page_id);
CREATE INDEX IF NOT EXISTS idx_chunks_room ON document_chunks(data_room_id);
-- Full-text search reads chunk_search; chunks made before it had their
-- tsvector here.
ALTER TABLE document_chunks DROP COLUMN IF EXISTS search;

-- What full-text search matches, a chunk's text and context as a
-- tsvector, with what ranking and its order need. Its policy admits only
-- the chunks that match the transaction's app.search (a tsquery): under
-- row-level security the planner may use an index only for the policy's
-- own conditions and leakproof ones, and @@ is not leakproof, so written
-- in a query it is checked on every row of the room instead of looked up
-- in the GIN index.
CREATE TABLE IF NOT EXISTS chunk_search (
    chunk_id uuid PRIMARY KEY REFERENCES document_chunks(id) ON DELETE CASCADE,
    data_room_id uuid NOT NULL,
    document_id uuid NOT NULL,
    chunk_index integer NOT NULL,
    search tsvector NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_chunk_search ON chunk_search USING gin (search);
-- a search within some documents reads their rows only
CREATE INDEX IF NOT EXISTS idx_chunk_search_document ON chunk_search(document_id);

-- How many of a room's chunks hold each word (retrieve.CountWords of
-- their context and text), kept by every write of chunks, so that a
-- search can leave out the room's commonest words. "C" orders words as
-- Go does, so the words a word's family starts with are one range.
CREATE TABLE IF NOT EXISTS room_words (
    data_room_id uuid NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    word text COLLATE "C" NOT NULL,
    chunks integer NOT NULL,
    PRIMARY KEY (data_room_id, word)
);
-- The HNSW cosine index needs a fixed dimension: OpenRooms and Complete
-- make one per dimension in use (idx_chunks_embedding_<dims>), over
-- embedding::vector(<dims>) where vector_dims(embedding) = <dims>.

CREATE TABLE IF NOT EXISTS qa_queries (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    data_room_id uuid NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    question text NOT NULL CONSTRAINT question_5_to_2000_characters CHECK (char_length(question) BETWEEN 5 AND 2000),
    answer text,
    answer_type varchar(50) CONSTRAINT answer_type_grounded_insufficient_evidence_or_error
        CHECK (answer_type IN ('grounded', 'insufficient_evidence', 'error')),
    model_used varchar(100) NOT NULL DEFAULT '',
    retrieval_time_ms integer CHECK (retrieval_time_ms >= 0),
    llm_time_ms integer CHECK (llm_time_ms >= 0),
    total_time_ms integer CHECK (total_time_ms >= 0),
    chunks_retrieved integer CHECK (chunks_retrieved >= 0),
    tokens_input integer CHECK (tokens_input >= 0),
    tokens_output integer CHECK (tokens_output >= 0),
    error_type varchar(100) NOT NULL DEFAULT '',
    error_message text NOT NULL DEFAULT '',
    retry_count integer NOT NULL DEFAULT 0 CONSTRAINT retry_count_0_or_1 CHECK (retry_count >= 0 AND retry_count <= 1),
    created_at timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    CONSTRAINT answer_has_a_type CHECK (answer IS NULL OR answer_type IS NOT NULL),
    CONSTRAINT completed_after_created CHECK (completed_at IS NULL OR completed_at >= created_at)
);
CREATE INDEX IF NOT EXISTS idx_queries_user_room ON qa_queries(user_id, data_room_id, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_queries_data_room ON qa_queries(data_room_id, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_queries_completed ON qa_queries(completed_at) WHERE completed_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS qa_citations (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    query_id uuid NOT NULL REFERENCES qa_queries(id) ON DELETE CASCADE,
    chunk_id uuid NOT NULL REFERENCES document_chunks(id) ON DELETE CASCADE,
    document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page_number integer NOT NULL,
    relevance_score decimal(5,4) NOT NULL CONSTRAINT relevance_0_to_1 CHECK (relevance_score BETWEEN 0 AND 1),
    rank integer NOT NULL CONSTRAINT rank_from_1 CHECK (rank > 0),
    text_preview text NOT NULL CONSTRAINT preview_at_most_500_characters CHECK (char_length(text_preview) <= 500),
    verified boolean NOT NULL DEFAULT true,
    citation_format varchar(20) NOT NULL DEFAULT 'inline' CHECK (citation_format IN ('inline', 'footnote')),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT rank_once_per_query UNIQUE (query_id, rank)
);
CREATE INDEX IF NOT EXISTS idx_citations_query ON qa_citations(query_id, rank);
CREATE INDEX IF NOT EXISTS idx_citations_chunk ON qa_citations(chunk_id);
CREATE INDEX IF NOT EXISTS idx_citations_document ON qa_citations(document_id);

CREATE TABLE IF NOT EXISTS qa_feedback (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    query_id uuid NOT NULL UNIQUE REFERENCES qa_queries(id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    rating varchar(20) NOT NULL CONSTRAINT rating_helpful_or_not_helpful CHECK (rating IN ('helpful', 'not_helpful')),
    comment text NOT NULL DEFAULT '' CONSTRAINT comment_at_most_2000_characters CHECK (char_length(comment) <= 2000),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS idx_feedback_rating ON qa_feedback(rating, created_at);
CREATE INDEX IF NOT EXISTS idx_feedback_user ON qa_feedback(user_id);

CREATE TABLE IF NOT EXISTS qa_rate_limits (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    data_room_id uuid NOT NULL REFERENCES data_rooms(id) ON DELETE CASCADE,
    window_start timestamptz NOT NULL,
    query_count integer NOT NULL DEFAULT 0 CHECK (query_count >= 0 AND query_count <= 100),
    last_query_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_ratelimit_user_room_window ON qa_rate_limits(user_id, data_room_id, window_start);
CREATE INDEX IF NOT EXISTS idx_ratelimit_window ON qa_rate_limits(window_start);

-- Row-level security: the specification's policies with the acting user
-- read from the transaction's app.user_id setting (set_config(...,
-- true)) where Supabase has auth.uid(). 'system' is the application's
-- own work (processing, start-up, sweeps). FORCE makes the policies bind
-- the tables' owner, the role the application connects as.

-- quarry_actor is the acting user, NULL unless app.user_id holds a uuid.
CREATE OR REPLACE FUNCTION quarry_actor() RETURNS uuid LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN current_setting('app.user_id', true) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        THEN current_setting('app.user_id', true)::uuid END
$$;
CREATE OR REPLACE FUNCTION quarry_system() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT coalesce(current_setting('app.user_id', true) = 'system', false)
$$;
-- quarry_search is the transaction's full-text query (app.search), NULL
-- when none is set.
CREATE OR REPLACE FUNCTION quarry_search() RETURNS tsquery LANGUAGE sql STABLE AS $$
    SELECT nullif(current_setting('app.search', true), '')::tsquery
$$;
-- quarry_rooms lists the rooms the acting user is a member of with one of
-- roles.
CREATE OR REPLACE FUNCTION quarry_rooms(roles text[]) RETURNS SETOF uuid LANGUAGE sql STABLE AS $$
    SELECT data_room_id FROM data_room_members WHERE user_id = quarry_actor() AND role = ANY (roles)
$$;

DO $$
DECLARE t text; p text;
BEGIN
    FOREACH t IN ARRAY ARRAY['data_rooms', 'data_room_members', 'documents', 'document_pages', 'document_chunks',
        'chunk_search', 'room_words', 'qa_queries', 'qa_citations', 'qa_feedback', 'qa_rate_limits'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        -- Policies are made anew below, so a changed one replaces the old.
        FOR p IN SELECT policyname FROM pg_policies WHERE tablename = t AND schemaname = current_schema() LOOP
            EXECUTE format('DROP POLICY %I ON %I', p, t);
        END LOOP;
    END LOOP;
END
$$;

-- Rooms: members see theirs (and a creator the room being made); owners
-- delete.
CREATE POLICY rooms_read ON data_rooms FOR SELECT
    USING (quarry_system() OR created_by = quarry_actor() OR id IN (SELECT quarry_rooms('{owner,editor,viewer}')));
CREATE POLICY rooms_create ON data_rooms FOR INSERT
    WITH CHECK (quarry_system() OR created_by = quarry_actor());
CREATE POLICY rooms_delete ON data_rooms FOR DELETE
    USING (quarry_system() OR id IN (SELECT quarry_rooms('{owner}')));

-- Memberships are readable (ids and roles only: every other policy reads
-- them, and a policy may not read its own table); only a room's owners
-- change them, or a creator making themselves the owner of a new room,
-- and a member may leave.
CREATE POLICY members_read ON data_room_members FOR SELECT USING (true);
CREATE POLICY members_add ON data_room_members FOR INSERT
    WITH CHECK (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner}'))
        OR (user_id = quarry_actor() AND role = 'owner' AND data_room_id IN (SELECT id FROM data_rooms WHERE created_by = quarry_actor())));
CREATE POLICY members_change ON data_room_members FOR UPDATE
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner}')));
CREATE POLICY members_remove ON data_room_members FOR DELETE
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner}')) OR user_id = quarry_actor());

-- Documents, pages and chunks: members read, editors and owners write.
CREATE POLICY documents_read ON documents FOR SELECT
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}')));
CREATE POLICY documents_write ON documents FOR ALL
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor}')));
CREATE POLICY pages_read ON document_pages FOR SELECT
    USING (quarry_system() OR document_id IN (SELECT id FROM documents WHERE data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}'))));
CREATE POLICY pages_write ON document_pages FOR ALL
    USING (quarry_system() OR document_id IN (SELECT id FROM documents WHERE data_room_id IN (SELECT quarry_rooms('{owner,editor}'))));
CREATE POLICY chunks_read ON document_chunks FOR SELECT
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}')));
CREATE POLICY chunks_write ON document_chunks FOR ALL
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor}')));
-- A search reads the chunks of app.search in the rooms it may read;
-- rows go in with their chunks and out by the cascade. The query is a
-- subquery so that it is read once, not parsed again for every row.
CREATE POLICY chunk_search_match ON chunk_search FOR SELECT
    USING (search @@ (SELECT quarry_search()) AND (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}'))));
CREATE POLICY chunk_search_write ON chunk_search FOR INSERT
    WITH CHECK (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor}')));
-- A room's word counts go with its chunks.
CREATE POLICY words_read ON room_words FOR SELECT
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}')));
CREATE POLICY words_write ON room_words FOR ALL
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor}')));

-- The specification's qa_queries_access_policy: queries of the rooms the
-- user is a member of; a user writes only their own.
CREATE POLICY qa_queries_access_policy ON qa_queries FOR SELECT
    USING (quarry_system() OR data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}')));
CREATE POLICY qa_queries_own ON qa_queries FOR ALL
    USING (quarry_system() OR (user_id = quarry_actor() AND data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}'))));
-- "Similar policies for qa_citations, qa_feedback": through their query.
CREATE POLICY qa_citations_access_policy ON qa_citations FOR SELECT
    USING (quarry_system() OR query_id IN (SELECT id FROM qa_queries));
CREATE POLICY qa_citations_own ON qa_citations FOR ALL
    USING (quarry_system() OR query_id IN (SELECT id FROM qa_queries WHERE user_id = quarry_actor()));
CREATE POLICY qa_feedback_access_policy ON qa_feedback FOR SELECT
    USING (quarry_system() OR query_id IN (SELECT id FROM qa_queries));
CREATE POLICY qa_feedback_own ON qa_feedback FOR ALL
    USING (quarry_system() OR (user_id = quarry_actor() AND query_id IN (SELECT id FROM qa_queries WHERE user_id = quarry_actor())));
CREATE POLICY qa_rate_limits_own ON qa_rate_limits FOR ALL
    USING (quarry_system() OR (user_id = quarry_actor() AND data_room_id IN (SELECT quarry_rooms('{owner,editor,viewer}'))));
