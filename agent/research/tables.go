package research

// Tables and lists of labelled values: a Markdown table's rows are read
// as "label: value" lines ("| Stops | 19 |" is "Stops: 19"; a row of a
// table whose header names its columns, "| Thornmere dig | £158,000 |"
// under "| Project | Award |", is "Thornmere dig award: £158,000"; a
// column headed by a year gives the row's value for that year), so that
// a claim written in a table meets the same claim written in prose.

import (
	"strings"
)

// tableSentences rewrites the Markdown tables of text as one labelled
// line per value cell, in paragraphs of their own, and leaves the rest.
func tableSentences(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		if i+1 >= len(lines) || !tableRow(lines[i]) || !separatorRow(lines[i+1]) {
			out = append(out, lines[i])
			continue
		}
		header := cells(lines[i])
		j := i + 2
		for ; j < len(lines) && tableRow(lines[j]); j++ {
			row := cells(lines[j])
			if len(row) < 2 {
				continue
			}
			name, from := row[0], 1
			// "| 8 | The Hollow Pines | Lowland | $96,400,000 |" under
			// "| Rank | Artist | Tour | Gross |": the row is named by its
			// words, not its rank.
			if rankColumn(header[0], row[0]) {
				var ws []string
				for _, c := range row[1:] {
					if c != "" && !strings.ContainsAny(c, "0123456789") {
						ws = append(ws, c)
					}
				}
				if len(ws) > 0 {
					name = strings.Join(ws, " ")
				}
			}
			for k := from; k < len(row) && k < len(header); k++ {
				if strings.TrimSpace(row[k]) == "" || name != row[0] && !strings.ContainsAny(row[k], "0123456789") {
					continue
				}
				out = append(out, "", labelFor(name, header[k])+": "+row[k]+".")
			}
		}
		out = append(out, "")
		i = j - 1
	}
	return strings.Join(out, "\n")
}

// labelFor names a cell by its row and column: the row alone under a
// column of values ("Value", "Figure"), "Visits (2025)" under a year, the
// row's name and the column's otherwise.
func labelFor(row, col string) string {
	// "Skarvik Glacier Research Station, construction": a row named by
	// a thing and its part is one label.
	row, col = strings.TrimSpace(strings.ReplaceAll(row, ", ", " ")), strings.TrimSpace(col)
	switch {
	case yearRE.MatchString(row) && len(row) <= 9:
		return col + " (" + row + ")" // a row per year: "Finishers (2024)"
	case col == "" || genericColumns[strings.ToLower(col)]:
		return row
	case planColumns[strings.ToLower(col)]:
		return "Planned " + row // a column of plans: "Beds" under "Plan"
	case yearRE.MatchString(col) && len(col) <= 9:
		return row + " (" + col + ")"
	}
	return row + " " + strings.ToLower(col)
}

// planColumns head a column of what was planned, budgeted or targeted.
var planColumns = set("plan", "planned", "target", "targets", "budget", "budgeted")

var genericColumns = set("value", "values", "figure", "figures", "number", "amount", "data", "detail", "details", "fact", "facts", "info", "")

func tableRow(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "|") && strings.Count(t, "|") >= 2
}

func separatorRow(line string) bool {
	t := strings.TrimSpace(line)
	return tableRow(t) && strings.Trim(t, "|-: ") == ""
}

func cells(line string) []string {
	t := strings.Trim(strings.TrimSpace(line), "|")
	parts := strings.Split(t, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// rankColumn reports a first column that ranks or numbers the rows
// ("Rank", "#", "No."), not one that names them.
func rankColumn(header, cell string) bool {
	h := strings.ToLower(strings.Trim(strings.TrimSpace(header), "."))
	if h == "rank" || h == "#" || h == "no" || h == "position" || h == "pos" || h == "place" {
		return true
	}
	return cell != "" && strings.Trim(cell, "0123456789.=") == "" && h == ""
}
