// Every model of the explorer under QAbstractItemModelTester, filled with real analyses.
#include "GuiFixtures.h"
#include "charts/Format.h"
#include "dialogs/ShapeTrendsTable.h"
#include "models/DocumentTreeModel.h"
#include "models/FieldTableModel.h"
#include "models/OutlierTableModel.h"
#include "models/SourceTreeModel.h"
#include "mongo/DocumentFetcher.h"
#include "pages/OutliersPage.h"
#include "viewer/DocumentViewer.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <bson/bson.h>

using namespace oe;

class TestGuiModels : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_feeds;
    QString m_viral;
    AnalysisResult m_feedsResult;
    QList<fixtures::ReferenceDocument> m_feedsRef;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_feeds = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"));
        m_viral = guifixtures::demoDump(m_dir.path(), QStringLiteral("viral_posts"));
        m_feedsResult = guifixtures::analyse(m_feeds);
        m_feedsRef = fixtures::readReference(m_feeds);
        QCOMPARE(m_feedsResult.profile.documents, std::uint64_t(m_feedsRef.size()));
    }

    void fieldTableModel()
    {
        FieldTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setResult(m_feedsResult);
        const int row = model.rowOf("activities");
        QVERIFY(row >= 0);
        std::uint32_t longest = 0;
        for (const auto &d : m_feedsRef)
            longest = std::max(longest, d.longestArrayLength);
        QCOMPARE(model.index(row, FieldTableModel::MaxLength)
                     .data(FieldTableModel::SortRole)
                     .toULongLong(),
                 qulonglong(longest));
        // Every row is an array path of the profile and nothing else.
        int arrays = 0;
        for (const auto &f : m_feedsResult.profile.fields)
            arrays += f.arrays > 0 ? 1 : 0;
        QCOMPARE(model.rowCount(), arrays);
        // Numeric sort through the proxy: the longest arrays first.
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(FieldTableModel::SortRole);
        proxy.sort(FieldTableModel::MaxLength, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, FieldTableModel::Path).data().toString(),
                 QStringLiteral("activities"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void outlierTableAndFilters()
    {
        OutliersPage page;
        QAbstractItemModelTester tester(page.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.showResult(m_feedsResult);
        const auto &rows = m_feedsResult.outliers.rows;
        QVERIFY(!rows.empty());
        // One row per document, whatever the number of reasons it was listed for.
        QSet<QString> documents;
        for (const OutlierRow &r : rows)
            documents.insert(r.id);
        QVERIFY(documents.size() < qsizetype(rows.size())); // some document has two reasons
        QCOMPARE(page.model()->rowCount(), int(documents.size()));
        QCOMPARE(qulonglong(documents.size()), qulonglong(m_feedsResult.outliers.outlierDocuments));
        // Sizes agree with an independent read of the dump.
        QHash<QString, std::uint32_t> sizeById;
        for (const auto &d : m_feedsRef)
            sizeById.insert(d.id, d.size);
        for (int r = 0; r < page.model()->rowCount(); ++r) {
            const QString id = page.model()->index(r, OutlierTableModel::Id).data().toString();
            QVERIFY2(sizeById.contains(id), qPrintable(id));
            QCOMPARE(page.model()
                         ->index(r, OutlierTableModel::Size)
                         .data(OutlierTableModel::SortRole)
                         .toULongLong(),
                     qulonglong(sizeById.value(id)));
        }
        // Free-text filter: the one row of one _id, with all its reasons.
        const QString id = rows.front().id;
        QStringList idReasons;
        for (const OutlierRow &r : rows)
            if (r.id == id)
                idReasons << r.reason;
        QTest::keyClicks(page.filterEdit(), id);
        QCOMPARE(page.proxy()->rowCount(), 1);
        QCOMPARE(page.proxy()->index(0, OutlierTableModel::Reason).data().toString(),
                 idReasons.join(QStringLiteral(", ")));
        page.filterEdit()->clear();
        QCOMPARE(page.proxy()->rowCount(), int(documents.size()));
        // Reason filter: exactly the documents listed for that reason.
        QVERIFY(page.reasonBox()->count() >= 2);
        page.reasonBox()->setCurrentIndex(1);
        const QString reason = page.reasonBox()->currentData().toString();
        QSet<QString> withReason;
        for (const OutlierRow &r : rows)
            if (r.reason == reason)
                withReason.insert(r.id);
        QCOMPARE(page.proxy()->rowCount(), int(withReason.size()));
        for (int r = 0; r < page.proxy()->rowCount(); ++r)
            QVERIFY(page.proxy()
                        ->index(r, OutlierTableModel::Reason)
                        .data()
                        .toString()
                        .split(QStringLiteral(", "))
                        .contains(reason));
        // Sorting by size, descending, through the proxy.
        page.proxy()->sort(OutlierTableModel::Size, Qt::DescendingOrder);
        for (int r = 1; r < page.proxy()->rowCount(); ++r)
            QVERIFY(page.proxy()
                        ->index(r - 1, OutlierTableModel::Size)
                        .data(OutlierTableModel::SortRole)
                        .toULongLong() >= page.proxy()
                                              ->index(r, OutlierTableModel::Size)
                                              .data(OutlierTableModel::SortRole)
                                              .toULongLong());
        // Activating a row asks for that row's document.
        QSignalSpy requested(&page, &OutliersPage::documentRequested);
        page.activate(page.proxy()->index(0, 0));
        QCOMPARE(requested.count(), 1);
        QVERIFY(requested.first().first().value<OutlierRow>().reason.contains(reason));
    }

    void documentTreeModelExpandsLazily()
    {
        const auto reference = fixtures::readReference(m_viral);
        int largest = 0;
        for (int i = 1; i < reference.size(); ++i)
            if (reference[i].size > reference[largest].size)
                largest = i;
        SourceError error;
        const QByteArray doc = DocumentFetcher::fromDump(m_viral, std::uint64_t(largest), &error);
        QVERIFY2(!doc.isEmpty(), qPrintable(error.toString()));
        QCOMPARE(std::uint32_t(doc.size()), reference[largest].size);

        DocumentTreeModel model;
        QElapsedTimer clock;
        clock.start();
        model.setDocument(doc);
        // Attached after the reset: Qt 6.4's tester calls fetchMore() from its modelReset
        // handler, before it records the reset as finished, and then reports the rows that
        // fetchMore() inserts as overlapping the reset.
        auto tester = std::make_unique<QAbstractItemModelTester>(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!model.canFetchMore({})); // the top level arrives with the document
        bson_t b;
        QVERIFY(bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                 std::size_t(doc.size())));
        QCOMPARE(model.rowCount(), int(bson_count_keys(&b)));
        // The longest array: the first chunk only, then the rest on demand.
        QModelIndex array;
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.index(r, DocumentTreeModel::Key).data().toString() ==
                reference[largest].longestArrayPath)
                array = model.index(r, 0);
        QVERIFY(array.isValid());
        QCOMPARE(model.index(array.row(), DocumentTreeModel::Type).data().toString(),
                 QStringLiteral("array"));
        QVERIFY(model.hasChildren(array));
        if (model.rowCount(array) == 0) // the tester may have opened it already
            model.fetchMore(array);
        // One chunk, not the whole array.
        QCOMPARE(model.rowCount(array),
                 int(std::min<qint64>(DocumentTreeModel::kChunk,
                                      reference[largest].longestArrayLength)));
        qInfo("opened a %lld-byte document and its first chunk in %lld ms", qlonglong(doc.size()),
              qlonglong(clock.elapsed()));
        model.fetchMore(array); // a second chunk under the tester
        tester.reset();         // it re-checks every row on each insert: too slow for 120,000
        while (model.canFetchMore(array))
            model.fetchMore(array);
        for (int r = 0; r < model.rowCount(array); ++r)
            QCOMPARE(model.index(r, DocumentTreeModel::Key, array).data().toString(),
                     QString::number(r));
        QCOMPARE(model.rowCount(array), int(reference[largest].longestArrayLength));
        QCOMPARE(model.index(0, DocumentTreeModel::Key, array).data().toString(),
                 QStringLiteral("0"));
        QCOMPARE(
            model.index(model.rowCount(array) - 1, DocumentTreeModel::Key, array).data().toString(),
            QString::number(reference[largest].longestArrayLength - 1));
        // Corrupt bytes: no rows, no crash.
        DocumentTreeModel brokenModel;
        brokenModel.setDocument(doc.left(100));
        QAbstractItemModelTester brokenTester(
            &brokenModel, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(brokenModel.rowCount(), 0);
        QVERIFY(!brokenModel.error().isEmpty());
    }

    void sourceTreeModel()
    {
        SourceTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QModelIndex a = model.addDump(m_feeds);
        const QModelIndex b = model.addDump(m_viral);
        QCOMPARE(model.addDump(m_feeds), a); // no duplicates
        QCOMPARE(model.rowCount(), 1);       // the "Dump files" group
        QCOMPARE(model.rowCount(model.index(0, 0)), 2);
        QCOMPARE(model.sourceAt(b).kind, SourceRef::Kind::Dump);
        QCOMPARE(model.sourceAt(b).dumpPath, QFileInfo(m_viral).absoluteFilePath());
        QCOMPARE(model.index(a.row(), SourceTreeModel::Size, a.parent()).data().toString(),
                 model.index(a.row(), SourceTreeModel::Size, a.parent()).data().toString());

        ConnectionSettings settings;
        settings.uri = QStringLiteral("mongodb://app:s3cret@db.example:27017/");
        const QModelIndex conn = model.addConnection(QStringLiteral("prod"), settings);
        QCOMPARE(conn.row(), 0); // connections above the dumps
        QCOMPARE(model.rowCount(conn), 1);
        QVERIFY(!model.index(0, 0, conn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .contains(QStringLiteral("s3cret")));
        QVERIFY(!conn.data(Qt::ToolTipRole).toString().contains(QStringLiteral("s3cret")));

        Catalog catalog;
        for (const QString &db : {QStringLiteral("shop"), QStringLiteral("social")}) {
            Catalog::Database entry{DatabaseInfo{db, 4096}, {}};
            for (int i = 0; i < 3; ++i) {
                CollectionInfo c;
                c.database = db;
                c.name = QStringLiteral("c%1").arg(i);
                c.documents = 1000 * (i + 1);
                c.dataSize = 1 << (10 + i);
                entry.collections.push_back(c);
            }
            catalog.databases.push_back(entry);
        }
        model.setCatalog(conn, catalog);
        QCOMPARE(model.rowCount(conn), 2);
        const QModelIndex c2 =
            model.findCollection(conn, QStringLiteral("social"), QStringLiteral("c2"));
        QVERIFY(c2.isValid());
        QCOMPARE(model.kindOf(c2), SourceTreeModel::Kind::Collection);
        QCOMPARE(model.index(c2.row(), SourceTreeModel::Documents, c2.parent()).data().toString(),
                 QLocale().toString(3000));
        const SourceRef ref = model.sourceAt(c2);
        QCOMPARE(ref.database, QStringLiteral("social"));
        QCOMPARE(ref.collection, QStringLiteral("c2"));
        QCOMPARE(ref.settings.uri, settings.uri);
        QVERIFY(!ref.displayName().contains(QStringLiteral("s3cret")));
        QVERIFY(!ref.key().contains(QStringLiteral("s3cret")));
        SourceRef unnamed = ref; // no connection name: no empty brackets
        unnamed.connectionName.clear();
        QCOMPARE(unnamed.displayName(), QStringLiteral("social.c2"));

        // Read again: rows stay where they were (a view keeps its selection and expansion),
        // their figures follow; a new database is added, a dropped collection removed.
        const QPersistentModelIndex kept(c2);
        const QPersistentModelIndex social(c2.parent());
        Catalog later = catalog;
        later.databases[1].collections[2].documents = 4321;
        later.databases[0].collections.erase(later.databases[0].collections.begin());
        Catalog::Database added{DatabaseInfo{QStringLiteral("stats"), 0}, {}};
        CollectionInfo events;
        events.database = added.info.name;
        events.name = QStringLiteral("events");
        events.documents = 7;
        added.collections.push_back(events);
        later.databases.push_back(added);
        model.setCatalog(conn, later);
        QVERIFY(kept.isValid() && social.isValid());
        QCOMPARE(QModelIndex(kept),
                 model.findCollection(conn, QStringLiteral("social"), QStringLiteral("c2")));
        QCOMPARE(
            model.index(kept.row(), SourceTreeModel::Documents, kept.parent()).data().toString(),
            QLocale().toString(4321));
        QCOMPARE(model.rowCount(conn), 3);
        QVERIFY(model.findCollection(conn, QStringLiteral("stats"), QStringLiteral("events"))
                    .isValid());
        QVERIFY(
            !model.findCollection(conn, QStringLiteral("shop"), QStringLiteral("c0")).isValid());
        QCOMPARE(model.rowCount(model.index(0, 0, conn)), 2);

        Catalog failed;
        failed.error = SourceError::io(QStringLiteral("db.example:27017"),
                                       QStringLiteral("No suitable servers found"));
        model.setCatalog(conn, failed);
        QCOMPARE(model.rowCount(conn), 1);
        QVERIFY(model.index(0, 0, conn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("No suitable servers")));
        QCOMPARE(model.kindOf(model.index(0, 0, conn)), SourceTreeModel::Kind::Message);
        QVERIFY(!model.sourceAt(model.index(0, 0, conn)).isValid());
        model.removeConnection(conn);
        QCOMPARE(model.rowCount(), 1);
    }

    // Scrolling an expanded long array reaches its last element: the activity feed with
    // 100,288 activities, each a document of its own (QTreeView alone stopped at 1,999).
    void viewerScrollsToTheLastElement()
    {
        const auto reference = fixtures::readReference(m_feeds);
        int largest = 0;
        for (int i = 1; i < reference.size(); ++i)
            if (reference[i].longestArrayLength > reference[largest].longestArrayLength)
                largest = i;
        const int length = int(reference[largest].longestArrayLength);
        QVERIFY(length > 50000);
        SourceError error;
        const QByteArray doc = DocumentFetcher::fromDump(m_feeds, std::uint64_t(largest), &error);
        QVERIFY2(!doc.isEmpty(), qPrintable(error.toString()));

        DocumentViewer viewer;
        viewer.resize(700, 500);
        viewer.setDocument(doc, QStringLiteral("largest"));
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        QModelIndex array;
        for (int r = 0; r < viewer.model()->rowCount(); ++r)
            if (viewer.model()->index(r, 0).data().toString() ==
                reference[largest].longestArrayPath)
                array = viewer.model()->index(r, 0);
        QVERIFY(array.isValid());
        viewer.tree()->expand(array);
        QScrollBar *bar = viewer.tree()->verticalScrollBar();
        for (int i = 0; i < 1000 && viewer.model()->rowCount(array) < length; ++i) {
            bar->setValue(bar->maximum());
            QCoreApplication::processEvents(); // the test's own loop: layout after each fetch
        }
        QCOMPARE(viewer.model()->rowCount(array), length);
        QCOMPARE(viewer.model()->index(length - 1, 0, array).data().toString(),
                 QString::number(length - 1));
    }

    // A server time limit bounds each operation; a scan longer than it says so.
    void timeLimitNote()
    {
        QVERIFY(Format::timeLimitNote(0, 10.0).isEmpty());   // no limit
        QVERIFY(Format::timeLimitNote(5000, 3.0).isEmpty()); // the scan was shorter
        const QString note = Format::timeLimitNote(1000, 3.0);
        QVERIFY2(note.contains(QStringLiteral("each server operation")), qPrintable(note));
        QVERIFY2(note.contains(Format::duration(1.0)), qPrintable(note));
    }

    // Trends' shape table: a flag per row, a run per column; a run that measured the shape
    // without the flag shows "–", one that did not measure it "not measured"; only the latest
    // runs are columns.
    void shapeTrendsTable()
    {
        std::vector<HistoryRun> runs;
        std::map<qint64, std::vector<HistoryShapeFlag>> flags;
        const QDateTime at(QDate(2026, 11, 1), QTime(12, 0), Qt::UTC);
        for (int i = 0; i < ShapeTrendsTable::kMaxRuns + 2; ++i) {
            HistoryRun r;
            r.id = i + 1;
            r.at = at.addDays(i);
            if (i != 5)
                r.shapeFlags = i < 4 ? 1 : 2;
            runs.push_back(r);
            if (i == 5)
                continue;
            flags[r.id].push_back({r.id, QStringLiteral("mixed_types"), QStringLiteral("firmware"),
                                   QStringLiteral("string"), std::uint64_t(6 * (i + 1)),
                                   std::uint64_t(1500 * (i + 1))});
            if (i >= 4)
                flags[r.id].push_back({r.id, QStringLiteral("rare_field"),
                                       QStringLiteral("calibration"), QString(), 5, 1500});
        }
        ShapeTrendsTable table;
        table.show(runs, flags);
        QCOMPARE(table.columnCount(), ShapeTrendsTable::kFixedColumns + ShapeTrendsTable::kMaxRuns);
        QCOMPARE(table.rowCount(), 2);
        QCOMPARE(table.horizontalHeaderItem(3)->text(), QStringLiteral("2026-11-03 12:00:00"));
        QCOMPARE(table.item(0, 0)->text(), QStringLiteral("mixed_types"));
        QCOMPARE(table.item(0, 3)->text(), QStringLiteral("18 of 4,500")); // run 3
        QCOMPARE(table.item(0, 3)->toolTip(), QStringLiteral("0.40 %"));
        QCOMPARE(table.item(0, 6)->text(), QStringLiteral("not measured")); // run 6
        QCOMPARE(table.item(0, 10)->text(), QStringLiteral("60 of 15,000"));
        QCOMPARE(table.item(1, 1)->text(), QStringLiteral("calibration"));
        QCOMPARE(table.item(1, 4)->text(), QStringLiteral("–")); // run 4: measured, not flagged
        QCOMPARE(table.item(1, 5)->text(), QStringLiteral("5 of 1,500"));
    }
};

QTEST_MAIN(TestGuiModels)
#include "tst_guimodels.moc"
