package web

import (
	"archive/zip"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
)

// chartRef finds the charts a report links to: ![...](charts/name.png).
var chartRef = regexp.MustCompile(`\]\((charts/[A-Za-z0-9_.-]+\.png)\)`)

// downloadReport sends report.md with the charts it shows and the
// explanations as JSON, zipped, so the report reads the same offline.
func (s *Server) downloadReport(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	rep, err := s.svc.Report(r.Context(), id)
	if err != nil {
		return err
	}
	files := []string{"results/explanations.json"}
	seen := map[string]bool{}
	for _, m := range chartRef.FindAllStringSubmatch(rep.Content, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			files = append(files, m[1])
		}
	}
	paths := make(map[string]string, len(files))
	for _, rel := range files {
		p, err := s.svc.ArtifactPath(r.Context(), id, rel)
		if err != nil {
			return err
		}
		paths[rel] = p
	}

	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="quarry-report-%s.zip"`, id[:8]))
	zw := zip.NewWriter(w)
	put := func(name string, r io.Reader) error {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: rep.GeneratedAt})
		if err != nil {
			return err
		}
		_, err = io.Copy(fw, r)
		return err
	}
	// Once the first byte is out the status is sent; errors past here can
	// only cut the archive short, which the client sees as a broken zip.
	if err := put("report.md", strings.NewReader(rep.Content)); err != nil {
		s.log.Warn("report download", "session", id, "err", err)
		return nil
	}
	for _, rel := range files {
		f, err := os.Open(paths[rel])
		if err != nil {
			s.log.Warn("report download", "session", id, "err", err)
			return nil
		}
		err = put(rel, f)
		f.Close()
		if err != nil {
			s.log.Warn("report download", "session", id, "err", err)
			return nil
		}
	}
	if err := zw.Close(); err != nil {
		s.log.Warn("report download", "session", id, "err", err)
	}
	return nil
}
