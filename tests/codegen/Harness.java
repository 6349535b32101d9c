// Runs a generated Java snippet against a server: commands on standard input, one per line
// ("index", "append ID N", "read ID FROM COUNT", "all ID"); each read prints "ID: n,n,...".
// Usage: java Harness URI DB [CLASS] (the snippet's class, default CommentsAccess; found by
// reflection, so one compilation serves many snippets).
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Collectors;
import org.bson.Document;

public final class Harness {
    private static Object call(Method method, Object... args) throws Exception {
        try {
            return method.invoke(null, args);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    public static void main(String[] args) throws Exception {
        Class<?> snippet = Class.forName(args.length > 2 ? args[2] : "CommentsAccess");
        Method index = snippet.getMethod("createOverflowIndex", MongoDatabase.class);
        Method append = snippet.getMethod("append", MongoDatabase.class, Object.class, Object.class);
        Method read = snippet.getMethod("read", MongoDatabase.class, Object.class, int.class, int.class);
        Method readAll = snippet.getMethod("readAll", MongoDatabase.class, Object.class);
        try (MongoClient client = MongoClients.create(args[0])) {
            MongoDatabase db = client.getDatabase(args[1]);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
            for (String line; (line = in.readLine()) != null;) {
                String[] w = line.trim().split("\\s+");
                switch (w[0]) {
                    case "" -> { }
                    case "index" -> call(index, db);
                    case "append" -> call(append, db, w[1], new Document("n", Integer.parseInt(w[2])));
                    case "all", "read" -> {
                        List<?> items = (List<?>) (w[0].equals("all") ? call(readAll, db, w[1])
                                : call(read, db, w[1], Integer.parseInt(w[2]), Integer.parseInt(w[3])));
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
