package investigations

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/chat"
	"github.com/quarry-dev/quarry/investigation"
)

// ChatActor is the audit actor of the queries the chat runs to answer a
// question with a number the memory lacks.
const ChatActor = "chat"

// maxChatDimValues bounds the values of one dimension the chat matches
// questions against.
const maxChatDimValues = 2000

// chatFacts caches what the chat needs of a finished session: its metric,
// periods and dimensions do not change once the investigation is over.
type chatFacts struct {
	mu   sync.Mutex
	data map[string]*chat.Data
}

// chatData returns the metric, periods and dimension values of a finished
// session, and a query that is recorded in its audit log as actor "chat".
func (m *Service) chatData(ctx context.Context, id string) (*chat.Data, error) {
	m.facts.mu.Lock()
	d := m.facts.data[id]
	m.facts.mu.Unlock()
	if d != nil {
		return d, nil
	}
	var c investigation.Context
	if err := m.cfg.Store.ReadJSON(id, "context.json", &c); err != nil {
		return nil, err
	}
	files, err := m.cfg.Store.Files(id)
	if err != nil {
		return nil, err
	}
	eng, err := m.loadEngine(ctx, files)
	if err != nil {
		return nil, err
	}
	metric, err := eng.ParseMetric(ctx, c.MetricSQL)
	if err == nil {
		metric.TimeColumn, err = eng.TimeColumn(ctx, metric, c.TimeColumn, c.TimeFormat)
	}
	eng.Close()
	if err != nil {
		return nil, err
	}
	d = &chat.Data{Metric: *metric, Base: c.BaselinePeriod, Cmp: c.ComparisonPeriod,
		Query: func(ctx context.Context, purpose, sql string) (*quarry.QueryResult, int, error) {
			return m.recordedQuery(ctx, id, sql, ChatActor, purpose)
		}}
	inMetric := map[string]string{}
	for _, t := range metric.Tables {
		ref := metric.TableRefs[strings.ToLower(t)]
		if ref == "" {
			ref = t
		}
		inMetric[strings.ToLower(t)] = ref
	}
	var sel []string
	for _, f := range files {
		ref, ok := inMetric[strings.ToLower(f.TableName)]
		if !ok || f.Schema == nil {
			continue
		}
		for _, col := range f.Schema.Columns {
			if col.InferredType != quarry.RoleDimension || col.Cardinality > maxChatDimValues {
				continue
			}
			name := col.Name
			if len(metric.Tables) > 1 {
				name = f.TableName + "." + col.Name
			}
			expr := ident(ref) + "." + ident(col.Name)
			sel = append(sel, fmt.Sprintf("SELECT %d AS dim, CAST(%s AS VARCHAR) AS value FROM %s WHERE %s IS NOT NULL GROUP BY 2", len(d.Dimensions), expr, metric.From, expr))
			d.Dimensions = append(d.Dimensions, chat.Dimension{Name: name, Expr: expr})
		}
	}
	if len(sel) > 0 {
		res, _, err := m.recordedQuery(ctx, id, strings.Join(sel, " UNION ALL ")+" ORDER BY 1, 2", ChatActor, "chat: the values of the dimensions")
		if err != nil {
			return nil, err
		}
		for i := range res.Rows {
			k := int(res.Float(i, 0))
			d.Dimensions[k].Values = append(d.Dimensions[k].Values, res.String(i, 1))
		}
	}
	m.facts.mu.Lock()
	if m.facts.data == nil {
		m.facts.data = map[string]*chat.Data{}
	}
	m.facts.data[id] = d
	m.facts.mu.Unlock()
	return d, nil
}

// ident quotes an SQL identifier.
func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// drop forgets a deleted or expired session.
func (f *chatFacts) drop(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.data, id)
}
