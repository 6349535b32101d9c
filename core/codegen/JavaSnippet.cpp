#include "codegen/JavaSnippet.h"

#include "codegen/CodeTemplate.h"

namespace oe {

namespace {

constexpr const char *kTemplate =
    R"java(// Outlier pattern, as Outlier Explorer split it: the first {{keep}} elements of the array
// {{field}} of the collection {{collection}} stay in the document; the rest live in
// the collection {{overflow}}, in pages of {{pageSize}} linked by {{link}} and
// numbered by {{page}}; {{flag}} marks a split document.
// Java with the official sync driver: org.mongodb:mongodb-driver-sync
import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.gte;
import static com.mongodb.client.model.Filters.lte;
import static com.mongodb.client.model.Updates.push;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;

public final class {{Name}}Access {
    public static final long KEEP = {{keep}}L;
    public static final long PAGE_SIZE = {{pageSize}}L;

    private {{Name}}Access() {}

    /** Once: the index the split created. Pages of one document in order; unique, so two
     *  writers can never open the same page twice. */
    public static void createOverflowIndex(MongoDatabase db) {
        db.getCollection({{overflow}}).createIndex(Indexes.ascending({{link}}, {{page}}),
                new IndexOptions().unique(true));
    }

    /** Write path: appends item to the document's array, wherever it belongs, in at most two
     *  round trips. The first, one atomic update of the document, pushes item into it while it
     *  has room (no flag, and not exactly KEEP elements: one holding more is an outlier the
     *  split has not reached yet, and grows in place until it does), or else reserves the next
     *  overflow slot: it counts item in {{countDoc}} (the total length) and sets the
     *  flag{{andPages}}. The second pushes item to the page its slot falls in, opening that
     *  page if it is the first. The server hands out each slot once, so concurrent writers
     *  never collide. Needs MongoDB 4.2+ (an update pipeline); item goes in through $literal,
     *  never evaluated. */
    public static void append(MongoDatabase db, Object id, Object item) {
        Document size = new Document("$size",
                new Document("$ifNull", List.of({{fieldRef}}, List.of())));
        Document room = new Document("$and", List.of(
                new Document("$ne", List.of({{flagRef}}, true)),
                new Document("$ne", List.of(size, KEEP))));
        List<Bson> pipeline = List.of(
                new Document("$set", new Document({{count}}, new Document("$add", List.of(
                        new Document("$ifNull", List.of({{countRef}}, size)), 1)))),
                new Document("$set", new Document({{field}}, new Document("$cond", List.of(room,
                        new Document("$concatArrays", List.of(
                                new Document("$ifNull", List.of({{fieldRef}}, List.of())),
                                List.of(new Document("$literal", item)))),
                        {{fieldRef}})))
                        .append({{flag}}, new Document("$cond", List.of(room, {{flagRef}}, true))){{pagesSet}}));
        Document doc = db.getCollection({{collection}}).findOneAndUpdate(eq("_id", id), pipeline,
                new FindOneAndUpdateOptions().projection(Projections.include({{count}}, {{flag}}))
                        .returnDocument(ReturnDocument.AFTER));
        if (doc == null) {
            throw new IllegalArgumentException("append: no such document");
        }
        if (!Boolean.TRUE.equals(doc.get({{flag}}))) {
            return; // it went into the document
        }
        long slot = doc.get({{count}}, Number.class).longValue() - KEEP - 1;
        for (int attempt = 0; ; attempt++) {
            try {
                // A plain document as the filter: an upsert takes the new page's fields from it.
                db.getCollection({{overflow}}).updateOne(
                        new Document({{link}}, id).append({{page}}, slot / PAGE_SIZE),
                        push({{items}}, item), new UpdateOptions().upsert(true));
                return;
            } catch (MongoWriteException e) {
                // Two writers opening one page: the loser finds it there on the next try.
                if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY || attempt == 2) {
                    throw e;
                }
            }
        }
    }

    /** Read path: count elements (all when count is negative) from position start (0 is the
     *  first), in order. The first KEEP come from the document; deeper ones from the pages
     *  that hold them. Null if there is no such document. */
    public static List<Object> read(MongoDatabase db, Object id, int start, int count) {
        Document doc = db.getCollection({{collection}}).find(eq("_id", id)).first();
        if (doc == null) {
            return null;
        }
        List<?> head = doc.getEmbedded(List.of({{path}}), List.class);
        if (head == null) {
            head = List.of();
        }
        List<Object> out = new ArrayList<>();
        for (int i = start; i < head.size() && (count < 0 || out.size() < count); i++) {
            out.add(head.get(i));
        }
        if (!Boolean.TRUE.equals(doc.get({{flag}})) || out.size() == count) {
            return out;
        }
        long first = Math.max(start - head.size(), 0) / PAGE_SIZE;
        Bson range = count < 0 ? gte({{page}}, first)
                : and(gte({{page}}, first), lte({{page}}, (start + count - 1 - head.size()) / PAGE_SIZE));
        long at = head.size() + first * PAGE_SIZE; // the position of the page's first element
        for (Document p : db.getCollection({{overflow}}).find(and(eq({{link}}, id), range))
                .sort(Sorts.ascending({{page}}))) {
            for (Object item : p.getList({{items}}, Object.class)) {
                if (at >= start && (count < 0 || out.size() < count)) {
                    out.add(item);
                }
                at++;
            }
        }
        return out;
    }

    /** Every element, in order. */
    public static List<Object> readAll(MongoDatabase db, Object id) {
        return read(db, id, 0, -1);
    }
}
)java";

} // namespace

QString JavaSnippet::generate(const SplitConfig &input)
{
    const SplitConfig c = input.withDefaults();
    QHash<QString, QString> names = CodeTemplate::names(c, CodeLanguage::Java);
    // In a Javadoc comment the name is shown as a literal whose "*/" cannot end the comment.
    names.insert(QStringLiteral("countDoc"), QStringLiteral("the count field"));
    names.insert(
        QStringLiteral("pagesSet"),
        c.pagesField.isEmpty()
            ? QString()
            : QStringLiteral("\n                        .append(%1, new Document(\"$cond\", "
                             "List.of(room, %2, new Document(\"$max\", List.of(\n                "
                             "                new Document(\"$ifNull\", List.of(%2, 0L)), new "
                             "Document(\"$toLong\",\n                                new "
                             "Document(\"$add\", List.of(1L, new Document(\"$floor\", new "
                             "Document(\"$divide\",\n                                        "
                             "List.of(new Document(\"$subtract\", List.of(%3, KEEP + 1)), "
                             "PAGE_SIZE)))))))))))")
                  .arg(names.value(QStringLiteral("pages")),
                       names.value(QStringLiteral("pagesRef")),
                       names.value(QStringLiteral("countRef"))));
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
