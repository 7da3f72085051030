package main

import (
	"context"

	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/postgres"
)

// openPostgres opens a PostgreSQL source (postgres://... or
// postgresql://...), queried in place in read-only transactions.
func openPostgres(ctx context.Context, dsn string) (analysis.Source, error) {
	src, err := postgres.OpenSource(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return src, nil
}
