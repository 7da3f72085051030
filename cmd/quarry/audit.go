package main

import (
	"context"
	"fmt"
	"io"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/audit"
)

// runAudit implements "quarry audit verify PATH".
func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) != 2 || args[0] != "verify" {
		return &usageError{"usage: quarry audit verify PATH"}
	}
	res, err := audit.VerifyFile(args[1])
	if err != nil {
		return err
	}
	if !res.OK() {
		return quarry.Errorf(quarry.ECodeConflict, "%s: entry %d is broken: %s (%d entries before it verified)", args[1], res.FirstBroken, res.Reason, res.FirstBroken-1)
	}
	fmt.Fprintf(stdout, "%s: %d entries, chain intact, last hash %s\n", args[1], res.Entries, res.LastHash)
	return nil
}
