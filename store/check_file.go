package store

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// CheckFile asks SQLite whether the file itself is sound, before anything
// reads the books from it: integrity_check (every page, every index entry
// against its table), or with quick the cheaper quick_check (pages and
// their structure, not index contents), then foreign_key_check, then a
// sample of payouts looked up in the search index by their own text. Each
// finding names the table or index it is in. A file with findings here
// cannot be trusted for the rest of the check, nor served.
func (g Health) CheckFile(ctx context.Context, quick bool) ([]string, error) {
	db := g.db
	pragma := "integrity_check"
	if quick {
		pragma = "quick_check"
	}
	trees, err := db.trees(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: read the schema: %w", pragma, err)
	}
	var problems []string
	rows, err := db.r.QueryContext(ctx, "PRAGMA "+pragma+"(1000)")
	if err != nil {
		return []string{pragma + ": " + err.Error()}, nil
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		for _, l := range strings.Split(line, "\n") {
			if l != "ok" && !strings.HasPrefix(l, "*** in database ") {
				problems = append(problems, pragma+": "+nameTree(l, trees))
			}
		}
	}
	if err := rows.Err(); err != nil {
		return append(problems, pragma+": "+err.Error()), nil
	}
	fks, err := db.foreignKeyProblems(ctx)
	if err != nil {
		return nil, err
	}
	search, err := db.searchIndexProblems(ctx)
	if err != nil {
		return nil, err
	}
	return append(append(problems, fks...), search...), nil
}

// trees maps each b-tree's root page to the table or index it holds, so a
// finding SQLite reports by page ("Tree 12 page 40: ...") names its owner.
func (db *DB) trees(ctx context.Context) (map[int64]string, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT type, name, rootpage FROM sqlite_schema WHERE rootpage > 0")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{1: "table sqlite_schema"}
	for rows.Next() {
		var typ, name string
		var root int64
		if err := rows.Scan(&typ, &name, &root); err != nil {
			return nil, err
		}
		out[root] = typ + " " + name
	}
	return out, rows.Err()
}

var treeRef = regexp.MustCompile(`^Tree (\d+) `)

func nameTree(line string, trees map[int64]string) string {
	m := treeRef.FindStringSubmatch(line)
	if m == nil {
		return line
	}
	root, _ := strconv.ParseInt(m[1], 10, 64)
	if name, ok := trees[root]; ok {
		return name + ": " + line
	}
	return line
}

// foreignKeyProblems lists rows whose parent row is missing.
func (db *DB) foreignKeyProblems(ctx context.Context) ([]string, error) {
	rows, err := db.r.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return []string{"foreign_key_check: " + err.Error()}, nil
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var table, parent string
		var rowid *int64
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return nil, err
		}
		row := "a row"
		if rowid != nil {
			row = "row " + strconv.FormatInt(*rowid, 10)
		}
		out = append(out, fmt.Sprintf("foreign_key_check: table %s, %s: refers to a row of %s that does not exist", table, row, parent))
	}
	return out, rows.Err()
}
