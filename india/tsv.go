package india

import (
	"fmt"
	"strings"
)

// parseTSV splits an embedded table into rows of exactly fields columns,
// skipping blank lines and '#' comments. The tables are compiled into the
// binary and covered by tests, so a malformed row is a programming error and
// panics at start-up rather than surfacing as a wrong answer later.
func parseTSV(name, data string, fields int) [][]string {
	var rows [][]string
	for n, line := range strings.Split(data, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != fields {
			panic(fmt.Sprintf("india: %s line %d: %d fields, want %d", name, n+1, len(cols), fields))
		}
		rows = append(rows, cols)
	}
	return rows
}
