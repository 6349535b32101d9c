// The remedies in the window, against mongod: the Shape tab's Rewrite… turns keys used as
// data into an array and back, and extracts big values to a side collection or GridFS and
// back; the migration wizard lists a collection's other outliers, previews the remedy with the
// sizes after it (the CLI's figures) and applies it through the Rewrite dialog.
#include "CatalogDocuments.h"
#include "CliRunner.h"
#include "GuiLiveBench.h"
#include "KillTrials.h"
#include "LiveDocuments.h"
#include "charts/Format.h"
#include "dialogs/RewriteDialog.h"
#include "pages/ShapeFieldTree.h"
#include "remedy/RewriteConfig.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardAnalysisPage.h"
#include "wizard/WizardRemedyPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QWizard>
#include <QtTest>

#include <algorithm>

using namespace oe;

class TestGuiRemedy : public QObject, public GuiLiveBench
{
    Q_OBJECT

    // 40 articles, 4 of them (_ids 0, 13, 26, 39) with a body of 300 KiB.
    bool insertBigBodies(const QString &collection, QString *error) const
    {
        QStringList docs;
        for (int i = 0; i < 40; ++i)
            docs << QStringLiteral("{\"_id\": %1, \"title\": \"t%1\", \"body\": \"%2\"}")
                        .arg(i)
                        .arg(QString(i % 13 == 0 ? 300 * 1024 : 40, QLatin1Char('a' + i % 26)));
        return insertAll(collection, docs, error);
    }

    // The window on `collection`, its wizard opened and driven as a user would to the remedy
    // of the `outlier` at `path` (the Source page naming the remedies' journal, the analysis
    // page's row clicked); the wizard and the page in the out-parameters.
    void openRemedy(MainWindow &window, const QString &collection, const QString &path,
                    const QString &outlier, MigrationWizard **wizardOut, WizardRemedyPage **out)
    {
        QVERIFY(shapeOf(window, collection));
        MigrationWizard *wizard = window.openMigrationWizard();
        QVERIFY(wizard);
        QTRY_VERIFY(wizard->currentPage()->isComplete());
        bool journalNamed = false; // the Source page says where the remedies journal
        for (const QLabel *label : wizard->currentPage()->findChildren<QLabel *>())
            journalNamed =
                journalNamed ||
                label->text().contains(QStringLiteral("journaled in <i>%1</i>")
                                           .arg(collection + RewriteConfig::journalSuffix()));
        QVERIFY(journalNamed);
        wizard->next();
        auto *analysis = qobject_cast<WizardAnalysisPage *>(wizard->currentPage());
        QVERIFY(analysis);
        QCOMPARE(analysis->table()->rowCount(), 0); // no array to split
        QTableWidget *others = analysis->others();
        int row = -1;
        for (int r = 0; r < others->rowCount(); ++r)
            if (others->item(r, 0)->text() == path)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(others->item(row, 1)->text(), outlier);
        QVERIFY(!analysis->isComplete());
        QTest::mouseClick(others->viewport(), Qt::LeftButton, {},
                          others->visualItemRect(others->item(row, 1)).center());
        QVERIFY(analysis->isComplete());
        wizard->next();
        QCOMPARE(wizard->currentId(), int(MigrationWizard::RemedyPageId));
        QVERIFY(wizard->button(QWizard::BackButton)->isVisible()); // a wrong row is one step away
        *wizardOut = wizard;
        *out = qobject_cast<WizardRemedyPage *>(wizard->currentPage());
    }

public:
    TestGuiRemedy() : GuiLiveBench(QStringLiteral("oe_guiremedy")) {}

private slots:
    void initTestCase()
    {
        const QString problem = openFresh();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // Shape tab → keys used as data → Rewrite…: the dialog previews every document's change
    // before anything is written (the same count as the CLI's preview), applies it journaled,
    // verifies it, and rolls it back to the same bytes.
    void rewriteFromTheShapeTab()
    {
        QStringList docs;
        for (int i = 0; i < 60; ++i) {
            QStringList days;
            for (int d = 0; d < 3; ++d)
                days << QStringLiteral("\"%1\": {\"views\": %2}")
                            .arg(QDate(2026, 1, 1).addDays(i + d).toString(Qt::ISODate))
                            .arg(i * d);
            docs << QStringLiteral("{\"_id\": %1, \"daily\": {%2}}").arg(i).arg(days.join(u','));
        }
        QString error;
        QVERIFY2(insertAll(QStringLiteral("visits"), docs, &error), qPrintable(error));
        const auto before = fixtures::readCollection(m_uri, m_db, QStringLiteral("visits"));
        MainWindow window;
        RewriteDialog *dialog =
            openRewrite(window, QStringLiteral("visits"), QStringLiteral("keys_as_data"),
                        QStringLiteral("daily"));
        QVERIFY(dialog);
        QVERIFY(!window.collectionView()->shape()->typeGuardButton()->isEnabled());
        QSignalSpy finished(dialog, &RewriteDialog::finished);
        QVERIFY(finished.wait(30000)); // the preview, on opening
        QCOMPARE(dialog->lastStep().preview.changes, std::uint64_t(60));
        QCOMPARE(dialog->rows()->rowCount(), 60);
        QCOMPARE(dialog->rows()->item(0, 1)->text(), QStringLiteral("change"));
        QVERIFY(dialog->status()->text().contains(QStringLiteral("{\"daily.k\":1}")));
        const CliRun cli = runCli({QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri,
                                   QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                                   QStringLiteral("visits"), QStringLiteral("--path"),
                                   QStringLiteral("daily"), QStringLiteral("--keys-to-array")});
        QVERIFY2(cli.out.contains(QStringLiteral("to rewrite: 60;")), qPrintable(cli.out));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("visits")) == before);
        dialog->resize(900, 580);
        saveScreenshot(dialog, QStringLiteral("rewrite.png"));

        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Apply),
                 qPrintable(dialog->status()->text()));
        QCOMPARE(dialog->lastStep().progress.rewritten, std::uint64_t(60));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Verify) &&
                     dialog->lastStep().verify.ok() && dialog->lastStep().verify.matching == 60,
                 qPrintable(dialog->status()->text()));
        QVERIFY(dialog->status()->text().startsWith(QStringLiteral("Verified: 60 entries of 60")));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Rollback),
                 qPrintable(dialog->status()->text()));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("visits")) == before);
    }

    // A misspelt field (rare_field "username" beside 200 documents' "userName") -> Rewrite...:
    // the dialog offers the rename, asks for the new name before anything runs, previews the
    // one change, applies it (the value under the new name, byte for byte), verifies it, and
    // rolls it back to the same bytes.
    void renameFromTheShapeTab()
    {
        QStringList docs;
        for (int i = 0; i < 200; ++i)
            docs << QStringLiteral("{\"_id\": %1, \"userName\": \"u%1\", \"age\": %1}").arg(i);
        docs << QStringLiteral("{\"_id\": 200, \"username\": \"typo\", \"age\": 200}");
        QString error;
        QVERIFY2(insertAll(QStringLiteral("users"), docs, &error), qPrintable(error));
        const auto before = fixtures::readCollection(m_uri, m_db, QStringLiteral("users"));
        MainWindow window;
        RewriteDialog *dialog =
            openRewrite(window, QStringLiteral("users"), QStringLiteral("rare_field"),
                        QStringLiteral("username"));
        QVERIFY(dialog);
        QCOMPARE(dialog->config().kind, RewriteKind::Rename);
        QCOMPARE(dialog->kindBox()->currentText(), QStringLiteral("Rename the field"));
        QVERIFY(dialog->newNameEdit()->isVisible());
        QVERIFY2(dialog->status()->text().contains(QStringLiteral("Type the new name of username")),
                 qPrintable(dialog->status()->text()));
        QVERIFY(!dialog->lastStep().ok); // nothing ran yet
        QSignalSpy finished(dialog, &RewriteDialog::finished);
        dialog->activateWindow();
        QTest::keyClicks(dialog->newNameEdit(), QStringLiteral("userName"));
        QTest::keyClick(dialog->newNameEdit(), Qt::Key_Return); // Preview
        QVERIFY(finished.wait(30000));
        QCOMPARE(dialog->lastStep().preview.changes, std::uint64_t(1));
        QCOMPARE(dialog->rows()->item(0, 1)->text(), QStringLiteral("change"));
        QVERIFY2(dialog->status()->text().contains(
                     QStringLiteral("Each document's username becomes userName")),
                 qPrintable(dialog->status()->text()));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("users")) == before);
        dialog->resize(900, 580);
        saveScreenshot(dialog, QStringLiteral("rename.png"));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Apply),
                 qPrintable(dialog->status()->text()));
        QCOMPARE(dialog->lastStep().progress.rewritten, std::uint64_t(1));
        const auto renamed = fixtures::readCollection(m_uri, m_db, QStringLiteral("users"));
        int typo = 0;
        for (const auto &[id, doc] : renamed)
            if (fixtures::numberOf(doc, QStringLiteral("_id")) == 200)
                typo += fixtures::fieldOf(doc, QStringLiteral("userName")) ==
                            fixtures::fieldOf(before.at(id), QStringLiteral("username")) &&
                        fixtures::fieldOf(doc, QStringLiteral("username")).isEmpty();
        QCOMPARE(typo, 1);
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Verify) &&
                     dialog->lastStep().verify.ok() && dialog->lastStep().verify.matching == 1,
                 qPrintable(dialog->status()->text()));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Rollback),
                 qPrintable(dialog->status()->text()));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("users")) == before);
    }

    // A catalogue: Shape tab -> its sparse_fields flag -> Rewrite... offers the attribute
    // rewrite of the family's 100 fields into attrs, previews each product's fields as its
    // {k, v} array (the CLI's count), applies it with the index, verifies it, and rolls it back
    // to the same bytes with the index dropped.
    void attributesFromTheShapeTab()
    {
        QString error;
        QVERIFY2(insertAll(QStringLiteral("catalogue"), fixtures::catalogueJson(300), &error),
                 qPrintable(error));
        const auto before = fixtures::readCollection(m_uri, m_db, QStringLiteral("catalogue"));
        MainWindow window;
        RewriteDialog *dialog = openRewrite(window, QStringLiteral("catalogue"),
                                            QStringLiteral("sparse_fields"), QString());
        QVERIFY(dialog);
        // The field tree marks each member of the family.
        QTreeWidgetItem *member =
            window.collectionView()->shape()->fieldTree()->itemOf("напряжение");
        QVERIFY(member);
        QCOMPARE(member->text(ShapeFieldTree::Flags), QStringLiteral("sparse_fields"));
        QSignalSpy finished(dialog, &RewriteDialog::finished);
        QVERIFY(finished.wait(30000)); // the preview, on opening
        const RewriteConfig config = dialog->config();
        QCOMPARE(config.kind, RewriteKind::Attributes);
        QCOMPARE(config.path, QStringLiteral("attrs"));
        QStringList fields = config.fields, family = fixtures::catalogueFields();
        fields.sort();
        family.sort();
        QCOMPARE(fields, family);
        QCOMPARE(dialog->lastStep().preview.changes, std::uint64_t(300));
        QCOMPARE(dialog->rows()->item(0, 1)->text(), QStringLiteral("change"));
        QVERIFY2(dialog->rows()->item(0, 3)->text().startsWith(
                     QStringLiteral("{ \"attrs\" : [ { \"k\" : \"%1\"")
                         .arg(fixtures::catalogueFieldsOf(0).first())),
                 qPrintable(dialog->rows()->item(0, 3)->text()));
        QVERIFY(dialog->status()->text().contains(
            QStringLiteral("Apply creates the index {\"attrs.k\": 1, \"attrs.v\": 1}")));
        // attr_000 (product 0's first field) unchecked: kept where it is, the rest move.
        QListWidget *list = dialog->fieldList();
        QVERIFY(list->isVisible());
        const QList<QListWidgetItem *> first =
            list->findItems(QStringLiteral("attr_000"), Qt::MatchExactly);
        QCOMPARE(first.size(), 1);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                          list->visualItemRect(first.first()).topLeft() + QPoint(10, 8));
        if (first.first()->checkState() == Qt::Checked) // the click landed beside the box
            first.first()->setCheckState(Qt::Unchecked);
        QCOMPARE(dialog->config().fields.size(), fixtures::kCatalogueFields - 1);
        QVERIFY(!dialog->config().fields.contains(QStringLiteral("attr_000")));
        QVERIFY(step(dialog, finished, RewriteDialog::Action::Preview));
        QVERIFY2(dialog->rows()->item(0, 2)->text().startsWith(QStringLiteral("{ \"attr_020\" : ")),
                 qPrintable(dialog->rows()->item(0, 2)->text()));
        const CliRun cli =
            runCli({QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri,
                    QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                    QStringLiteral("catalogue"), QStringLiteral("--attributes"),
                    QStringLiteral("--fields"), config.fields.join(QLatin1Char(','))});
        QVERIFY2(cli.out.contains(QStringLiteral("to rewrite: 300;")), qPrintable(cli.out));
        dialog->resize(1000, 580);
        saveScreenshot(dialog, QStringLiteral("attributes.png"));

        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Apply),
                 qPrintable(dialog->status()->text()));
        QCOMPARE(dialog->lastStep().progress.rewritten, std::uint64_t(300));
        for (const auto &[id, doc] :
             fixtures::readCollection(m_uri, m_db, QStringLiteral("catalogue")))
            if (fixtures::numberOf(doc, QStringLiteral("_id")) == 0)
                QVERIFY(!fixtures::fieldOf(doc, QStringLiteral("attr_000")).isEmpty());
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Verify) &&
                     dialog->lastStep().verify.matching == 300,
                 qPrintable(dialog->status()->text()));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Rollback),
                 qPrintable(dialog->status()->text()));
        QVERIFY(dialog->lastStep().progress.notes.contains(
            QStringLiteral("index attrs.k_1_attrs.v_1 the rewrite made: dropped")));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("catalogue")) == before);
    }

    // An attribute rewrite killed mid-run (the CLI, kill -9) with one field left out and the
    // rest named in another order (issue 53, defect 6): the window's Rewrite… finds it in the
    // journal, says so, and offers Resume, which finishes it as it was begun (the field left
    // out stays where it is); Verify and Roll back then work on it.
    void aKilledAttributeRewriteResumesFromTheWindow()
    {
        QString error;
        const QString c = QStringLiteral("resumed");
        QVERIFY2(insertAll(c, fixtures::catalogueJson(300), &error), qPrintable(error));
        const auto before = fixtures::readCollection(m_uri, m_db, c);
        QStringList fields = fixtures::catalogueFields();
        fields.removeAll(QStringLiteral("attr_000"));
        std::reverse(fields.begin(), fields.end());
        // Paced (100 documents a second), so that the kill within 0.6 s lands mid-run.
        const KillTrials trials = KillTrials::run(
            qEnvironmentVariable("OE_CLI"),
            {QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
             m_db, QStringLiteral("--collection"), c, QStringLiteral("--attributes"),
             QStringLiteral("--fields"), fields.join(QLatin1Char(',')), QStringLiteral("--batch"),
             QStringLiteral("5"), QStringLiteral("--max-docs-per-sec"), QStringLiteral("100"),
             QStringLiteral("--yes")},
            1);
        QCOMPARE(trials.killed, 1);

        MainWindow window;
        RewriteDialog *dialog = openRewrite(window, c, QStringLiteral("sparse_fields"), QString());
        QVERIFY(dialog);
        QSignalSpy finished(dialog, &RewriteDialog::finished);
        QVERIFY(finished.wait(30000)); // the preview, on opening
        QVERIFY2(dialog->status()->text().contains(QStringLiteral("An interrupted 99 sparse "
                                                                  "fields")),
                 qPrintable(dialog->status()->text()));
        QVERIFY(dialog->resumeButton()->isVisible());
        QVERIFY(dialog->resumeButton()->isEnabled());
        // Apply of what the dialog shows (all 100 fields) is another rewrite: refused, and
        // Resume stays offered.
        QVERIFY(!step(dialog, finished, RewriteDialog::Action::Apply));
        QVERIFY(dialog->resumeButton()->isVisible());
        dialog->resume();
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(1).toBool(), qPrintable(dialog->status()->text()));
        QVERIFY(dialog->lastStep().progress.notes.contains(
            QStringLiteral("resuming an interrupted rewrite")));
        QVERIFY(!dialog->resumeButton()->isVisible());
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Verify) &&
                     dialog->lastStep().verify.ok() && dialog->lastStep().verify.matching == 300,
                 qPrintable(dialog->status()->text()));
        for (const auto &[id, doc] : fixtures::readCollection(m_uri, m_db, c))
            if (fixtures::numberOf(doc, QStringLiteral("_id")) == 0)
                QVERIFY(!fixtures::fieldOf(doc, QStringLiteral("attr_000")).isEmpty());
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Rollback),
                 qPrintable(dialog->status()->text()));
        QVERIFY(fixtures::readCollection(m_uri, m_db, c) == before);
    }

    // A big string: Shape tab -> its big_scalar flag -> Rewrite... offers the extraction with the
    // flag's threshold; the preview lists the 3 big bodies, Apply moves them to the side
    // collection (the CLI's preview agrees before), Verify, and Roll back to the same bytes.
    void extractFromTheShapeTab()
    {
        QString error;
        QVERIFY2(insertBigBodies(QStringLiteral("articles"), &error), qPrintable(error));
        const auto before = fixtures::readCollection(m_uri, m_db, QStringLiteral("articles"));
        MainWindow window;
        RewriteDialog *dialog = openRewrite(window, QStringLiteral("articles"),
                                            QStringLiteral("big_scalar"), QStringLiteral("body"));
        QVERIFY(dialog);
        QSignalSpy finished(dialog, &RewriteDialog::finished);
        QVERIFY(finished.wait(30000)); // the preview, on opening
        QCOMPARE(dialog->config().kind, RewriteKind::Extract);
        QCOMPARE(dialog->config().minBytes, qint64(256 * 1024));
        QCOMPARE(dialog->lastStep().preview.changes, std::uint64_t(4)); // _ids 0, 13, 26, 39
        QCOMPARE(dialog->lastStep().preview.unchanged, std::uint64_t(36));
        const CliRun cli = runCli({QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri,
                                   QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                                   QStringLiteral("articles"), QStringLiteral("--path"),
                                   QStringLiteral("body"), QStringLiteral("--extract"),
                                   QStringLiteral("--min-bytes"), QString::number(256 * 1024)});
        QVERIFY2(cli.out.contains(QStringLiteral("to rewrite: 4; already so: 36;")),
                 qPrintable(cli.out));
        dialog->resize(900, 640);
        saveScreenshot(dialog, QStringLiteral("extract.png"));

        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Apply),
                 qPrintable(dialog->status()->text()));
        QCOMPARE(fixtures::readCollection(m_uri, m_db, QStringLiteral("articles_body_full")).size(),
                 std::size_t(4));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Verify) &&
                     dialog->lastStep().verify.ok() && dialog->lastStep().verify.matching == 4,
                 qPrintable(dialog->status()->text()));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Rollback),
                 qPrintable(dialog->status()->text()));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("articles")) == before);

        // The same bodies to GridFS (strings asked for): 4 files, then back.
        dialog->kindBox()->setCurrentIndex(int(RewriteKind::GridFs));
        QCheckBox *strings = dialog->findChild<QCheckBox *>();
        QVERIFY(strings && strings->isVisible());
        strings->setChecked(true);
        QVERIFY(step(dialog, finished, RewriteDialog::Action::Preview));
        QCOMPARE(dialog->lastStep().preview.changes, std::uint64_t(4));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Apply),
                 qPrintable(dialog->status()->text()));
        QCOMPARE(fixtures::readCollection(m_uri, m_db, QStringLiteral("fs.files")).size(),
                 std::size_t(4));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Rollback),
                 qPrintable(dialog->status()->text()));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("articles")) == before);
        QCOMPARE(fixtures::readCollection(m_uri, m_db, QStringLiteral("fs.files")).size(),
                 std::size_t(0));
    }

    // The wizard on a collection whose outliers are big strings, no array: the analysis page
    // lists them under the other outliers; choosing the row leads to the remedy page, which
    // previews the extraction over every document (the CLI's counts and sizes) with the sizes
    // after it beside those now; GridFS previews the same bodies; Apply… opens the Rewrite
    // dialog on the wizard, which applies and rolls back.
    void wizardCuresABigValue()
    {
        QString error;
        QVERIFY2(insertBigBodies(QStringLiteral("notes"), &error), qPrintable(error));
        const auto before = fixtures::readCollection(m_uri, m_db, QStringLiteral("notes"));
        MainWindow window;
        MigrationWizard *wizard = nullptr;
        WizardRemedyPage *remedy = nullptr;
        openRemedy(window, QStringLiteral("notes"), QStringLiteral("body"),
                   QStringLiteral("big values"), &wizard, &remedy);
        if (QTest::currentTestFailed())
            return;
        QSignalSpy previewed(remedy, &WizardRemedyPage::previewed);
        QVERIFY(previewed.wait(30000) && previewed.last().at(0).toBool());
        const RewritePreview &p = remedy->lastPreview().preview;
        QCOMPARE(p.changes, std::uint64_t(4)); // _ids 0, 13, 26, 39
        QCOMPARE(p.sizesBefore.count(), std::uint64_t(40));
        QVERIFY(p.sizesAfter.max() < 1024 && p.sizesBefore.max() > 300 * 1024);
        const CliRun cli = runCli({QStringLiteral("rewrite"), QStringLiteral("--uri"), m_uri,
                                   QStringLiteral("--db"), m_db, QStringLiteral("--collection"),
                                   QStringLiteral("notes"), QStringLiteral("--path"),
                                   QStringLiteral("body"), QStringLiteral("--extract"),
                                   QStringLiteral("--min-bytes"), QString::number(256 * 1024)});
        const QString sizes = QStringLiteral("the 40 documents' sizes: largest %1 bytes now, %2 "
                                             "bytes after; in all %3 bytes now, %4 bytes after")
                                  .arg(p.sizesBefore.max())
                                  .arg(p.sizesAfter.max())
                                  .arg(p.sizesBefore.sum())
                                  .arg(p.sizesAfter.sum());
        QVERIFY2(cli.out.contains(QStringLiteral("to rewrite: 4; already so: 36;")) &&
                     cli.out.contains(sizes),
                 qPrintable(cli.out + QStringLiteral(" / ") + sizes));
        QVERIFY2(
            remedy->summary()->text().contains(
                QStringLiteral("largest %1 bytes now").arg(Format::count(p.sizesBefore.max()))),
            qPrintable(remedy->summary()->text()));
        saveScreenshot(wizard, QStringLiteral("wizard-remedy.png"));

        remedy->kindBox()->setCurrentIndex(1); // GridFS, the strings too
        QVERIFY(previewed.wait(30000) && previewed.last().at(0).toBool());
        QCOMPARE(remedy->config().kind, RewriteKind::GridFs);
        QCOMPARE(remedy->lastPreview().preview.changes, std::uint64_t(4));
        remedy->kindBox()->setCurrentIndex(0);
        QVERIFY(previewed.wait(30000));

        QTest::mouseClick(remedy->applyButton(), Qt::LeftButton);
        RewriteDialog *dialog = nullptr;
        QVERIFY(QTest::qWaitFor([&] { return (dialog = wizard->findChild<RewriteDialog *>()); }));
        QSignalSpy finished(dialog, &RewriteDialog::finished);
        QVERIFY(finished.wait(30000)); // its preview, on opening
        QCOMPARE(dialog->config().kind, RewriteKind::Extract);
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Apply),
                 qPrintable(dialog->status()->text()));
        QCOMPARE(fixtures::readCollection(m_uri, m_db, QStringLiteral("notes_body_full")).size(),
                 std::size_t(4));
        QVERIFY2(step(dialog, finished, RewriteDialog::Action::Rollback),
                 qPrintable(dialog->status()->text()));
        QVERIFY(fixtures::readCollection(m_uri, m_db, QStringLiteral("notes")) == before);
    }

    // Keys used as data in the wizard: the remedy page previews keys to an array, with what it
    // costs (the documents grow) and the index it suggests.
    // The migration wizard offers a sparse family's cure: its analysis page lists the family,
    // and its remedy page previews the attribute rewrite of the 100 fields over every product.
    void wizardMovesASparseFamily()
    {
        QString error;
        QVERIFY2(
            insertAll(QStringLiteral("wizard_catalogue"), fixtures::catalogueJson(200), &error),
            qPrintable(error));
        MainWindow window;
        MigrationWizard *wizard = nullptr;
        WizardRemedyPage *remedy = nullptr;
        openRemedy(window, QStringLiteral("wizard_catalogue"), QString(),
                   QStringLiteral("sparse fields"), &wizard, &remedy);
        if (QTest::currentTestFailed())
            return;
        QSignalSpy previewed(remedy, &WizardRemedyPage::previewed);
        QVERIFY(previewed.wait(30000) && previewed.last().at(0).toBool());
        QCOMPARE(remedy->config().kind, RewriteKind::Attributes);
        QCOMPARE(remedy->config().fields.size(), fixtures::kCatalogueFields);
        QCOMPARE(remedy->lastPreview().preview.changes, std::uint64_t(200));
        QVERIFY2(remedy->summary()->text().contains(QStringLiteral("attrs.k")),
                 qPrintable(remedy->summary()->text()));
    }

    void wizardTurnsKeysIntoAnArray()
    {
        QStringList docs;
        for (int i = 0; i < 60; ++i) {
            QStringList days;
            for (int k = 0; k < 3 + i % 5; ++k)
                days << QStringLiteral("\"2026-%1-%2\": %3")
                            .arg(1 + (i + k) % 12, 2, 10, QLatin1Char('0'))
                            .arg(1 + (i * 7 + k) % 28, 2, 10, QLatin1Char('0'))
                            .arg(k + 1);
            docs << QStringLiteral("{\"_id\": %1, \"daily\": {%2}}")
                        .arg(i)
                        .arg(days.join(QStringLiteral(", ")));
        }
        QString error;
        QVERIFY2(insertAll(QStringLiteral("daily_visits"), docs, &error), qPrintable(error));
        MainWindow window;
        MigrationWizard *wizard = nullptr;
        WizardRemedyPage *remedy = nullptr;
        openRemedy(window, QStringLiteral("daily_visits"), QStringLiteral("daily"),
                   QStringLiteral("keys used as data"), &wizard, &remedy);
        if (QTest::currentTestFailed())
            return;
        QSignalSpy previewed(remedy, &WizardRemedyPage::previewed);
        QVERIFY(previewed.wait(30000) && previewed.last().at(0).toBool());
        QCOMPARE(remedy->config().kind, RewriteKind::KeysToArray);
        const RewritePreview &p = remedy->lastPreview().preview;
        QCOMPARE(p.changes, std::uint64_t(60));
        QVERIFY(p.sizesAfter.sum() > p.sizesBefore.sum()); // the pattern's cost, shown
        QVERIFY2(remedy->summary()->text().contains(QStringLiteral("daily.k")),
                 qPrintable(remedy->summary()->text()));
    }
};

QTEST_MAIN(TestGuiRemedy)
#include "tst_guiremedy.moc"
