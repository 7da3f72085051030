package investigations

import "path/filepath"

// artifacts writes one session's artifacts through the store; it satisfies
// investigate.Artifacts.
type artifacts struct {
	store Store
	id    string
	dir   string
}

func (m *Service) artifacts(id string) (*artifacts, error) {
	meta, err := m.cfg.Store.Path(id, "metadata.json")
	if err != nil {
		return nil, err
	}
	return &artifacts{store: m.cfg.Store, id: id, dir: filepath.Dir(meta)}, nil
}

func (a *artifacts) WriteJSON(rel string, v any) error { return a.store.WriteJSON(a.id, rel, v) }
func (a *artifacts) WriteFile(rel string, data []byte) error {
	return a.store.WriteFile(a.id, rel, data)
}
func (a *artifacts) Dir() string { return a.dir }
