// Runs a generated Java extract snippet (`codegen --extract --path post.body`: the class
// PostBodyExtracted) against a server: commands on standard input, one per line ("read ID",
// "write ID TEXT"); each read prints "ID: <post.body of the document read> <+ if the flag is
// still in it, else ->", or "ID: none". Usage: java ExtractHarness URI DB
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.bson.Document;

public final class ExtractHarness {
    private ExtractHarness() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (MongoClient client = MongoClients.create(args[0])) {
            MongoDatabase db = client.getDatabase(args[1]);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null;) {
                String[] w = line.trim().split("\\s+");
                switch (w[0]) {
                    case "" -> { }
                    case "read" -> {
                        Document doc = PostBodyExtracted.read(db, w[1]);
                        out.println(doc == null ? w[1] + ": none"
                                : w[1] + ": " + doc.get("post", Document.class).getString("body") + " "
                                        + (doc.containsKey("has_full_post_body") ? "+" : "-"));
                    }
                    case "write" -> PostBodyExtracted.write(db, w[1], w[2]);
                    case "writebin" -> {
                        byte[] data = new byte[Integer.parseInt(w[2])];
                        for (int i = 0; i < data.length; i++) {
                            data[i] = (byte) (i % 251);
                        }
                        PostBodyExtracted.write(db, w[1], data);
                    }
                    case "writedoc" -> PostBodyExtracted.write(db, w[1],
                            new Document("title", "T").append("text", "long").append("lang", "ru"));
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
            }
        }
    }
}
