package web

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// AnalysisService is what the analyses' API and pages need
// (analyses.Manager). Errors are *quarry.Error values.
type AnalysisService interface {
	// Start checks a request, stores its uploads and runs it in the
	// background.
	Start(ctx context.Context, req analysis.Request, uploads []analysis.Upload) (*analysis.Result, error)
	Get(ctx context.Context, id string) (*analysis.Result, error)
	List(ctx context.Context) ([]analysis.Summary, error)
	Subscribe(ctx context.Context, id string) (past []analysis.Event, live <-chan analysis.Event, cancel func(), err error)
	Audit(ctx context.Context, id string) ([]quarry.AuditEntry, error)
	VerifyAudit(ctx context.Context) (*analysis.AuditCheck, error)
	Artifact(ctx context.Context, id, artifactID string) (*analysis.Artifact, string, error)
	Recipes(ctx context.Context) ([]analysis.Recipe, error)
}

// routesAnalyses registers the analyses' API when the server has them.
func (s *Server) routesAnalyses() {
	if s.opt.Analyses == nil {
		return
	}
	for _, rt := range []struct {
		pattern string
		h       func(http.ResponseWriter, *http.Request) error
	}{
		{"POST /api/analyses", s.startAnalysis},
		{"GET /api/analyses", s.listAnalyses},
		{"GET /api/analyses/{id}", s.getAnalysis},
		{"GET /api/analyses/{id}/events", s.analysisEvents},
		{"GET /api/analyses/{id}/audit", s.analysisAudit},
		{"GET /api/analyses/{id}/audit/verify", s.verifyAnalysisAudit},
		{"GET /api/analyses/{id}/artifacts/{aid}", s.analysisArtifact},
		{"GET /api/recipes", s.listRecipes},
	} {
		s.mux.Handle(rt.pattern, s.api(rt.h))
	}
}

// maxUploads bounds the files of one analysis request.
const maxUploads = 10

// startAnalysis takes the request as JSON ({intent, data_sources,
// constraints, deliverables, policy}), or as a multipart form with the
// same fields as text (deliverables, allowed_columns comma-separated;
// blocked_patterns and source repeated) and files in "file" fields. It
// answers 202 with the record; the run goes on in the background.
func (s *Server) startAnalysis(w http.ResponseWriter, r *http.Request) error {
	var req analysis.Request
	var uploads []analysis.Upload
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "multipart/form-data":
		r.Body = http.MaxBytesReader(w, r.Body, maxUploads*s.opt.MaxUploadBytes+(1<<20))
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return quarry.Errorf(quarry.ECodeFileTooLarge, "the request is larger than %d files of %d MB", maxUploads, s.opt.MaxUploadBytes>>20)
			}
			return quarry.Errorf(codeBadRequest, "the multipart form could not be read: %v", err)
		}
		defer r.MultipartForm.RemoveAll()
		f := r.MultipartForm
		req.Intent = r.FormValue("intent")
		req.Deliverables = splitList(r.FormValue("deliverables"))
		req.Policy.AllowedColumns = splitList(r.FormValue("allowed_columns"))
		for _, p := range f.Value["blocked_patterns"] {
			if p = strings.TrimSpace(p); p != "" {
				req.Policy.BlockedPatterns = append(req.Policy.BlockedPatterns, p)
			}
		}
		var err error
		if req.Constraints.RowLimit, err = formInt(r, "row_limit"); err != nil {
			return err
		}
		if req.Constraints.TimeoutSeconds, err = formInt(r, "timeout_seconds"); err != nil {
			return err
		}
		for _, dsn := range f.Value["source"] {
			if dsn = strings.TrimSpace(dsn); dsn != "" {
				req.DataSources = append(req.DataSources, analysis.DataSource{Type: analysis.SourceSQL, ConnectionString: dsn})
			}
		}
		if len(f.File["file"]) > maxUploads {
			return quarry.Errorf(quarry.ECodeMaxFilesExceeded, "at most %d files per analysis", maxUploads)
		}
		for _, fh := range f.File["file"] {
			if fh.Size > s.opt.MaxUploadBytes {
				return quarry.Errorf(quarry.ECodeFileTooLarge, "%s is larger than %d MB", filepath.Base(fh.Filename), s.opt.MaxUploadBytes>>20)
			}
			file, err := fh.Open()
			if err != nil {
				return err
			}
			defer file.Close()
			uploads = append(uploads, analysis.Upload{Name: fh.Filename, Body: file})
		}
	default:
		if err := decodeJSON(r, &req); err != nil {
			return err
		}
	}
	res, err := s.opt.Analyses.Start(r.Context(), req, uploads)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/analyses/"+res.RequestID)
	writeJSON(w, http.StatusAccepted, res)
	return nil
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// formInt reads an optional whole number field (0 when absent).
func formInt(r *http.Request, name string) (int, error) {
	v := strings.TrimSpace(r.FormValue(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, quarry.Errorf(quarry.ECodeInvalid, "%s must be a whole number, not %q", name, v)
	}
	return n, nil
}

func (s *Server) listAnalyses(w http.ResponseWriter, r *http.Request) error {
	all, err := s.opt.Analyses.List(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"analyses": all})
	return nil
}

func (s *Server) getAnalysis(w http.ResponseWriter, r *http.Request) error {
	res, err := s.opt.Analyses.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// analysisEvents streams an analysis's progress: the plan when it is made,
// each step's status, each artifact, then "end" with the final status.
func (s *Server) analysisEvents(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	past, live, cancel, err := s.opt.Analyses.Subscribe(r.Context(), id)
	if err != nil {
		return err
	}
	defer cancel()
	return stream(w, r, past, live, func() any {
		res, err := s.opt.Analyses.Get(r.Context(), id)
		if err != nil {
			return nil
		}
		return map[string]any{"status": res.Status, "error": res.Error}
	})
}

func (s *Server) analysisAudit(w http.ResponseWriter, r *http.Request) error {
	entries, err := s.opt.Analyses.Audit(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"entries": entries})
	return nil
}

// verifyAnalysisAudit checks the whole log the analysis is chained into,
// with every artifact's hash.
func (s *Server) verifyAnalysisAudit(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.opt.Analyses.Get(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	check, err := s.opt.Analyses.VerifyAudit(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, check)
	return nil
}

func (s *Server) analysisArtifact(w http.ResponseWriter, r *http.Request) error {
	a, path, err := s.opt.Analyses.Artifact(r.Context(), r.PathValue("id"), r.PathValue("aid"))
	if err != nil {
		return err
	}
	ext := strings.ToLower(filepath.Ext(path))
	if ct, ok := artifactTypes[ext]; ok {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("X-Content-SHA256", a.ContentHash)
	if r.URL.Query().Get("download") != "" {
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filepath.Base(path)}))
	}
	http.ServeFile(w, r, path)
	return nil
}

func (s *Server) listRecipes(w http.ResponseWriter, r *http.Request) error {
	rs, err := s.opt.Analyses.Recipes(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"recipes": rs})
	return nil
}
