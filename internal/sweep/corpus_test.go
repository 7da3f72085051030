package sweep_test

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// table is one public table of the corpus.
type table struct {
	name string // as printed: corpus/file
	path string // the file as published
	// convert writes the table as CSV to w: a copy for a CSV, a
	// conversion for JSON and TSV. It is nil for a table that only the
	// analysis reads, from its own file (Parquet).
	convert func(src string, w io.Writer) error
}

// skipped is a file of the corpus that is not a table of records.
type skipped struct{ name, reason string }

// vegaTables lists the tables of vega-datasets' data folder: every CSV,
// every TSV, and every JSON file that is an array of records; everything
// else is skipped with the reason.
func vegaTables(dir string) ([]table, []skipped, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var tables []table
	var skips []skipped
	for _, e := range entries {
		name, path := "vega/"+e.Name(), filepath.Join(dir, e.Name())
		if e.IsDir() {
			skips = append(skips, skipped{name, "a folder"})
			continue
		}
		switch ext := strings.ToLower(filepath.Ext(e.Name())); ext {
		case ".csv":
			tables = append(tables, table{name, path, copyCSV})
		case ".tsv":
			tables = append(tables, table{name, path, tsvToCSV})
		case ".json":
			f, err := os.Open(path)
			if err != nil {
				return nil, nil, err
			}
			why := notRecords(f)
			f.Close()
			if why != "" {
				skips = append(skips, skipped{name, why})
				continue
			}
			tables = append(tables, table{name, path, jsonToCSV})
		case ".png", ".jpg", ".svg":
			skips = append(skips, skipped{name, "an image"})
		case ".arrow":
			skips = append(skips, skipped{name, "an Arrow IPC file; the investigation takes CSV and the test reads no Arrow"})
		case ".parquet":
			// flights-3m: three million rows, the analysis's largest table.
			tables = append(tables, table{name, path, nil})
		default:
			skips = append(skips, skipped{name, "not a CSV, TSV or JSON file"})
		}
	}
	return tables, skips, nil
}

// statsmodelsTables lists the CSV tables of statsmodels' datasets folder,
// one folder per dataset (anes96/anes96.csv, co2/co2.csv, ...).
func statsmodelsTables(dir string) ([]table, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.csv"))
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	var tables []table
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		tables = append(tables, table{"statsmodels/" + filepath.ToSlash(rel), p, copyCSV})
	}
	return tables, nil
}

// notRecords says why the JSON document r holds is not a table of
// records, or "" when it is one: a non-empty array whose elements are all
// objects. It reads one value at a time.
func notRecords(r io.Reader) string {
	dec := json.NewDecoder(bufio.NewReader(r))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return "not valid JSON"
	}
	switch tok {
	case json.Delim('['):
		n := 0
		for ; dec.More(); n++ {
			v, err := decodeOrdered(dec)
			if err != nil {
				return "not valid JSON"
			}
			if _, ok := v.(object); !ok {
				return "an array of values, not of records"
			}
		}
		if n == 0 {
			return "an empty array"
		}
		return ""
	case json.Delim('{'):
		keys := map[string]any{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return "not valid JSON"
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return "not valid JSON"
			}
			keys[k.(string)] = v
		}
		switch keys["type"] {
		case "Topology":
			return "TopoJSON, map shapes rather than records"
		case "FeatureCollection", "Feature":
			return "GeoJSON, map features rather than records"
		}
		if _, ok := keys["nodes"]; ok {
			return "a graph of nodes and links, not one table"
		}
		if _, ok := keys["values"]; ok {
			return "a grid of values, not records"
		}
		return "an object, not an array of records"
	}
	return "a single value, not records"
}

func copyCSV(src string, w io.Writer) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// tsvToCSV rewrites a tab-separated file as comma-separated CSV, quoting
// fields as encoding/csv does.
func tsvToCSV(src string, w io.Writer) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	cw := csv.NewWriter(w)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonToCSV writes an array of JSON records as CSV. The columns are the
// records' keys in the order they first appear; a nested object becomes
// one column per key, named parent.key; an array is written as its JSON
// text; null and a missing key are an empty field; numbers keep their
// JSON text and booleans read true or false. It reads the file twice, for
// the columns and then for the rows, one record at a time: the test
// process stays small (see runChild on ru_maxrss).
func jsonToCSV(src string, w io.Writer) error {
	var columns []string
	index := map[string]int{}
	err := eachRecord(src, func(row map[string]string, order []string) error {
		for _, col := range order {
			if _, ok := index[col]; !ok {
				index[col] = len(columns)
				columns = append(columns, col)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(columns); err != nil {
		return err
	}
	line := make([]string, len(columns))
	err = eachRecord(src, func(row map[string]string, _ []string) error {
		for j, c := range columns {
			line[j] = row[c]
		}
		return cw.Write(line)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// eachRecord calls fn with each record of the JSON array in src,
// flattened into its fields and their columns in order.
func eachRecord(src string, fn func(row map[string]string, order []string) error) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("%s: not an array of records", filepath.Base(src))
	}
	for n := 1; dec.More(); n++ {
		v, err := decodeOrdered(dec)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(src), err)
		}
		rec, ok := v.(object)
		if !ok {
			return fmt.Errorf("%s: record %d is not an object", filepath.Base(src), n)
		}
		row := map[string]string{}
		var order []string
		flatten("", rec, row, func(col string) { order = append(order, col) })
		if err := fn(row, order); err != nil {
			return err
		}
	}
	return nil
}

// object is a JSON object with its keys in the document's order, which a
// Go map would lose.
type object []field

type field struct {
	key   string
	value any
}

// decodeOrdered reads one JSON value from dec: an object as an object,
// an array as []any, numbers as json.Number (dec uses UseNumber).
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var o object
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, field{k.(string), v})
		}
		_, err := dec.Token() // }
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ]
		return a, err
	}
	return tok, nil
}

// flatten writes the fields of o into row under prefix, calling seen with
// each column name in the order of o's keys.
func flatten(prefix string, o object, row map[string]string, seen func(string)) {
	for _, f := range o {
		col := prefix + f.key
		switch v := f.value.(type) {
		case object:
			flatten(col+".", v, row, seen)
			continue
		case nil:
			row[col] = ""
		case string:
			row[col] = v
		case json.Number:
			row[col] = v.String()
		case bool:
			row[col] = strconv.FormatBool(v)
		default: // an array
			row[col] = compact(v)
		}
		seen(col)
	}
}

// compact writes an array back as JSON text, its objects' keys in order.
func compact(v any) string {
	var b strings.Builder
	var write func(any)
	write = func(v any) {
		switch v := v.(type) {
		case object:
			b.WriteByte('{')
			for i, f := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				k, _ := json.Marshal(f.key)
				b.Write(k)
				b.WriteByte(':')
				write(f.value)
			}
			b.WriteByte('}')
		case []any:
			b.WriteByte('[')
			for i, e := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			b.WriteByte(']')
		default:
			j, _ := json.Marshal(v)
			b.Write(j)
		}
	}
	write(v)
	return b.String()
}
