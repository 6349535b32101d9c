// Runs a generated Go extract snippet (`codegen --extract --path post.body`, the package
// ./snippet) against a server: commands on standard input, one per line ("read ID", "write ID
// TEXT"); each read prints "ID: <post.body of the document read> <+ if the flag is still in it,
// else ->", or "ID: none". Usage: go run . URI DB
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	snippet "oe-codegen-test/snippet"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// lookup: the value of key in d, and whether it is there.
func lookup(d bson.D, key string) (any, bool) {
	for _, e := range d {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}

func main() {
	ctx := context.Background()
	client, err := mongo.Connect(options.Client().ApplyURI(os.Args[1]))
	must(err)
	defer client.Disconnect(ctx)
	db := client.Database(os.Args[2])
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<16), 1<<20)
	for lines.Scan() {
		w := strings.Fields(lines.Text())
		switch {
		case len(w) == 0:
		case w[0] == "read":
			doc, err := snippet.ReadPostBody(ctx, db, w[1])
			must(err)
			if doc == nil {
				fmt.Printf("%s: none\n", w[1])
				continue
			}
			post, _ := lookup(doc, "post")
			body, _ := lookup(post.(bson.D), "body")
			mark := "-"
			if _, flagged := lookup(doc, "has_full_post_body"); flagged {
				mark = "+"
			}
			fmt.Printf("%s: %v %s\n", w[1], body, mark)
		case w[0] == "write" && len(w) == 3:
			must(snippet.WritePostBody(ctx, db, w[1], w[2]))
		case w[0] == "writebin" && len(w) == 3:
			n, err := strconv.Atoi(w[2])
			must(err)
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(i % 251)
			}
			must(snippet.WritePostBody(ctx, db, w[1], data))
		case w[0] == "writedoc":
			must(snippet.WritePostBody(ctx, db, w[1], bson.D{{Key: "title", Value: "T"}, {Key: "text", Value: "long"}, {Key: "lang", Value: "ru"}}))
		default:
			must(fmt.Errorf("unknown command: %s", lines.Text()))
		}
	}
	must(lines.Err())
}
