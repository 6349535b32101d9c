// Runs a generated Go snippet against a server: commands on standard input, one per line
// ("index", "append ID N", "read ID FROM COUNT", "all ID"); each read prints "ID: n,n,...".
// The test writes cases.go beside it: `var cases = map[string]snippetAPI{...}`, each entry a
// snippet package's four functions, so one build serves many snippets.
// Usage: go run . URI DB [CASE] (default "0")
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// The generated functions of one snippet.
type snippetAPI struct {
	index   func(context.Context, *mongo.Database) error
	append  func(context.Context, *mongo.Database, any, any) error
	read    func(context.Context, *mongo.Database, any, int, int) ([]bson.RawValue, error)
	readAll func(context.Context, *mongo.Database, any) ([]bson.RawValue, error)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func number(s string) int {
	n, err := strconv.Atoi(s)
	must(err)
	return n
}

func main() {
	ctx := context.Background()
	client, err := mongo.Connect(options.Client().ApplyURI(os.Args[1]))
	must(err)
	defer client.Disconnect(ctx)
	db := client.Database(os.Args[2])
	name := "0"
	if len(os.Args) > 3 {
		name = os.Args[3]
	}
	snippet, ok := cases[name]
	if !ok {
		must(fmt.Errorf("no case %s", name))
	}
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		w := strings.Fields(lines.Text())
		if len(w) == 0 {
			continue
		}
		var items []bson.RawValue
		switch w[0] {
		case "index":
			must(snippet.index(ctx, db))
			continue
		case "append":
			must(snippet.append(ctx, db, w[1], bson.D{{Key: "n", Value: number(w[2])}}))
			continue
		case "all":
			items, err = snippet.readAll(ctx, db, w[1])
		case "read":
			items, err = snippet.read(ctx, db, w[1], number(w[2]), number(w[3]))
		default:
			must(fmt.Errorf("unknown command: %s", lines.Text()))
		}
		must(err)
		ns := make([]string, 0, len(items))
		for _, item := range items {
			ns = append(ns, strconv.FormatInt(item.Document().Lookup("n").AsInt64(), 10))
		}
		fmt.Printf("%s: %s\n", w[1], strings.Join(ns, ","))
	}
	must(lines.Err())
}
