// Runs a generated Java snippet (class CommentsAccess) against a server: commands on standard
// input, one per line ("index", "append ID N", "read ID FROM COUNT", "all ID"); each read
// prints "ID: n,n,...". Usage: java Harness URI DB
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.List;
import java.util.stream.Collectors;
import org.bson.Document;

public final class Harness {
    public static void main(String[] args) throws Exception {
        try (MongoClient client = MongoClients.create(args[0])) {
            MongoDatabase db = client.getDatabase(args[1]);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
            for (String line; (line = in.readLine()) != null;) {
                String[] w = line.trim().split("\\s+");
                switch (w[0]) {
                    case "" -> { }
                    case "index" -> CommentsAccess.createOverflowIndex(db);
                    case "append" -> CommentsAccess.append(db, w[1], new Document("n", Integer.parseInt(w[2])));
                    case "all", "read" -> {
                        List<Object> items = w[0].equals("all") ? CommentsAccess.readAll(db, w[1])
                                : CommentsAccess.read(db, w[1], Integer.parseInt(w[2]), Integer.parseInt(w[3]));
                        System.out.println(w[1] + ": " + items.stream()
                                .map(i -> String.valueOf(((Document) i).get("n", Number.class).longValue()))
                                .collect(Collectors.joining(",")));
                    }
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
            }
        }
    }
}
