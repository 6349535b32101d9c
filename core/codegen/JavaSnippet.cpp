#include "JavaSnippet.h"

#include "CodeTemplate.h"

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
import static com.mongodb.client.model.Filters.exists;
import static com.mongodb.client.model.Filters.gte;
import static com.mongodb.client.model.Filters.lte;
import static com.mongodb.client.model.Filters.ne;
import static com.mongodb.client.model.Updates.combine;
import static com.mongodb.client.model.Updates.inc;
import static com.mongodb.client.model.Updates.max;
import static com.mongodb.client.model.Updates.push;
import static com.mongodb.client.model.Updates.set;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.result.UpdateResult;
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

    /** Write path: appends item to the document's array, wherever it belongs. One round trip
     *  while the document has room; past that, to its last page, opening the next when full. */
    public static void append(MongoDatabase db, Object id, Object item) {
        MongoCollection<Document> docs = db.getCollection({{collection}});
        MongoCollection<Document> pages = db.getCollection({{overflow}});
        if (KEEP > 0) {
            UpdateResult r = docs.updateOne(
                    and(eq("_id", id), ne({{flag}}, true), exists({{fieldKeepLast}}, false)),
                    push({{field}}, item));
            if (r.getMatchedCount() == 1) {
                return;
            }
        }
        while (true) {
            Document last = pages.find(eq({{link}}, id)).sort(Sorts.descending({{page}}))
                    .projection(Projections.include({{page}})).first();
            long page = last == null ? 0 : last.get({{page}}, Number.class).longValue();
            try {
                UpdateResult r = pushToPage(pages, id, page, item, last == null);
                if (r.getMatchedCount() == 0 && r.getUpsertedId() == null) {
                    page += 1; // the last page is full: open the next one
                    r = pushToPage(pages, id, page, item, true);
                }
{{opened}}                docs.updateOne(eq("_id", id), combine({{setCounters}}));
                return;
            } catch (MongoWriteException e) {
                if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
                    throw e;
                }
                // another writer opened that page first: go again
            }
        }
    }

    /** Appends item to one page, only while it holds fewer than PAGE_SIZE elements (the
     *  filter fails once it is full). */
    private static UpdateResult pushToPage(MongoCollection<Document> pages, Object id, long page,
                                           Object item, boolean upsert) {
        // A plain document, not and(...): an upsert takes the new page's fields from it.
        Document filter = new Document({{link}}, id).append({{page}}, page)
                .append({{itemsPageLast}}, new Document("$exists", false));
        return pages.updateOne(filter, push({{items}}, item), new UpdateOptions().upsert(upsert));
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
    QStringList counters{QStringLiteral("set(%1, true)").arg(names.value(QStringLiteral("flag")))};
    if (!c.countField.isEmpty())
        counters << QStringLiteral("inc(%1, opened ? KEEP + 1 : 1)")
                        .arg(names.value(QStringLiteral("count")));
    if (!c.pagesField.isEmpty())
        counters << QStringLiteral("max(%1, page + 1)").arg(names.value(QStringLiteral("pages")));
    names.insert(QStringLiteral("setCounters"), counters.join(QStringLiteral(", ")));
    names.insert(QStringLiteral("opened"),
                 c.countField.isEmpty()
                     ? QString()
                     : QStringLiteral("                // Whoever opened page 0 also counts the "
                                      "KEEP elements in the document.\n"
                                      "                boolean opened = r.getUpsertedId() != null "
                                      "&& page == 0;\n"));
    return CodeTemplate::fill(QString::fromUtf8(kTemplate), names);
}

} // namespace oe
