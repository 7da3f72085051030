// Package sqlite keeps Quarry's stores in one SQLite database through the
// pure-Go modernc.org/sqlite driver. DB is the retrieval index
// (retrieve.Index) on an FTS5 table ranked with BM25.
//
// A file database runs in WAL mode: any number of goroutines may search at
// once while one writes. Writes go through a single connection, so they
// queue in Go instead of failing with SQLITE_BUSY; busy_timeout covers
// other processes that open the same file.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// busyTimeoutMS is how long a connection waits for another process's lock
// before giving up with SQLITE_BUSY.
const busyTimeoutMS = 5000

// DB is an open Quarry database. It is safe for concurrent use.
type DB struct {
	write *sql.DB // one connection: every write, in order
	read  *sql.DB // many read-only connections; the same as write in memory
}

// Open opens the database at path, creating it when missing, and brings its
// schema up to date. The path ":memory:" opens a private in-memory database
// on a single connection, for tests.
func Open(path string) (*DB, error) {
	if path == ":memory:" {
		conn, err := sql.Open("sqlite", ":memory:?_pragma=foreign_keys(1)")
		if err != nil {
			return nil, err
		}
		// Every connection to ":memory:" is a different database: keep one.
		conn.SetMaxOpenConns(1)
		conn.SetConnMaxIdleTime(0)
		conn.SetConnMaxLifetime(0)
		db := &DB{write: conn, read: conn}
		if err := db.migrate(context.Background()); err != nil {
			conn.Close()
			return nil, err
		}
		return db, nil
	}

	var db DB
	var err error
	db.write, db.read, err = openFile(path, func(write *sql.DB) error {
		// Migrating first also switches the file to WAL before readers
		// connect.
		return (&DB{write: write}).migrate(context.Background())
	})
	if err != nil {
		return nil, err
	}
	return &db, nil
}

// openFile opens the database file at path as one writing connection,
// prepared by setup (the schema) before any reader connects, and a pool
// of read-only connections.
func openFile(path string, setup func(write *sql.DB) error) (write, read *sql.DB, err error) {
	write, err = sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, nil, err
	}
	write.SetMaxOpenConns(1)
	if err := setup(write); err != nil {
		write.Close()
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	read, err = sql.Open("sqlite", dsn(path, true))
	if err != nil {
		write.Close()
		return nil, nil, err
	}
	n := max(4, runtime.NumCPU())
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	return write, read, nil
}

// dsn returns the driver's name for the database file at path: a file: URI,
// so that any character in the path is escaped, with the pragmas every
// connection needs. Write transactions begin IMMEDIATE so that they take
// the write lock up front rather than failing halfway.
func dsn(path string, readOnly bool) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeoutMS))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_foreign_keys", "1")
	// Searches of a large room read many pages of its index and chunks:
	// they are read through a memory map and kept in a 32 MiB cache per
	// connection rather than read with a system call each time.
	q.Add("_pragma", "mmap_size(268435456)")
	q.Add("_pragma", "cache_size(-32768)")
	if readOnly {
		q.Set("_query_only", "1")
	} else {
		q.Set("_txlock", "immediate")
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String()
}

// Close closes the database. Calls in flight may fail.
func (db *DB) Close() error { return closePair(db.write, db.read) }

// closePair closes a writing connection and its readers, which are the
// same handle in memory.
func closePair(write, read *sql.DB) error {
	var err error
	if read != nil && read != write {
		err = read.Close()
	}
	if e := write.Close(); err == nil {
		err = e
	}
	return err
}
