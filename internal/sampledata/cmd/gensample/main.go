// Command gensample regenerates the committed sample data under testdata/
// from the sampledata generators.
//
// Usage, from the repository root:
//
//	go run ./internal/sampledata/cmd/gensample [-dir testdata]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/quarry-dev/quarry/internal/sampledata"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "gensample: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gensample", flag.ContinueOnError)
	dir := fs.String("dir", "testdata", "directory that gets one subdirectory per scenario")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, s := range sampledata.Scenarios() {
		paths, err := sampledata.WriteScenario(filepath.Join(*dir, s.Name), s)
		if err != nil {
			return err
		}
		for _, p := range paths {
			fmt.Fprintln(stdout, p)
		}
	}
	// The analyze job's samples.
	sales := filepath.Join(*dir, "analyze", "sales.csv")
	if err := os.MkdirAll(filepath.Dir(sales), 0o755); err != nil {
		return err
	}
	f, err := os.Create(sales)
	if err != nil {
		return err
	}
	if err := sampledata.WriteSales(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	shop := filepath.Join(*dir, "analyze", "shop.db")
	if err := sampledata.WriteShopDB(shop); err != nil {
		return err
	}
	fmt.Fprintln(stdout, sales)
	fmt.Fprintln(stdout, shop)
	return nil
}
