// Runs a generated Go snippet (package ./snippet, field "comments") against a server:
// commands on standard input, one per line ("index", "append ID N", "read ID FROM COUNT",
// "all ID"); each read prints "ID: n,n,...". Usage: go run . URI DB
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

	snippet "oe-codegen-test/snippet"
)

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
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		w := strings.Fields(lines.Text())
		if len(w) == 0 {
			continue
		}
		var items []bson.RawValue
		switch w[0] {
		case "index":
			must(snippet.CreateOverflowIndexComments(ctx, db))
			continue
		case "append":
			must(snippet.AppendComments(ctx, db, w[1], bson.D{{Key: "n", Value: number(w[2])}}))
			continue
		case "all":
			items, err = snippet.ReadAllComments(ctx, db, w[1])
		case "read":
			items, err = snippet.ReadComments(ctx, db, w[1], number(w[2]), number(w[3]))
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
