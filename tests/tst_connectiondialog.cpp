#include "connection/ConnectionDialog.h"
#include "connection/ConnectionStore.h"
#include "connection/RecentConnection.h"
#include "mongo/ConnectionUri.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>

using namespace oe;

namespace {

ConnectionUri parsed(const QString &uri)
{
    ConnectionUri u;
    QString error;
    if (!ConnectionUri::parse(uri, &u, &error))
        qWarning("not parsable: %s: %s", qPrintable(uri), qPrintable(error));
    return u;
}

// What the user does: replace the URI field's text by typing.
void typeUri(ConnectionDialog &dialog, const QString &text)
{
    dialog.uriEdit()->setFocus();
    dialog.uriEdit()->selectAll();
    QTest::keyClick(dialog.uriEdit(), Qt::Key_Backspace);
    QTest::keyClicks(dialog.uriEdit(), text);
}

void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

QByteArray settingsFileBytes()
{
    QSettings().sync();
    QFile f(QSettings().fileName());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

RecentConnection recentNamed(const QString &name, const QString &uri)
{
    RecentConnection r;
    r.name = name;
    r.uri = uri;
    return r;
}

} // namespace

// The connection dialog keeps the URI field and the form in sync, keeps the password out of
// the URI field and out of the recent-connections list, and tests a connection in the
// background. Settings are isolated (QStandardPaths test mode, a unique application name).
class TestConnectionDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("OutlierExplorerTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_connectiondialog-%1-%2")
                                                 .arg(QCoreApplication::applicationPid())
                                                 .arg(QDateTime::currentMSecsSinceEpoch()));
        QSettings().clear();
        QVERIFY(ConnectionStore::load().isEmpty());
        qInfo("settings file: %s", qPrintable(QSettings().fileName()));
    }
    void cleanup() { QSettings().clear(); }
    void cleanupTestCase()
    {
        QSettings settings;
        const QString file = settings.fileName();
        settings.clear();
        settings.sync();
        QFile::remove(file);
        QDir().rmdir(QFileInfo(file).absolutePath()); // only if no other run left files there
    }

    void typedPasswordMovesToThePasswordField()
    {
        ConnectionDialog dialog(nullptr);
        dialog.show();
        // "p@ss:w/rd?x" percent-encoded, as a connection string requires.
        const QString secret = QStringLiteral("p@ss:w/rd?x");
        const QString encodedSecret = QStringLiteral("p%40ss%3Aw%2Frd%3Fx");
        typeUri(dialog, QStringLiteral("mongodb://alice:%1@db1.example.com:27018/sales"
                                       "?authSource=admin&appName=oe")
                            .arg(encodedSecret));

        QCOMPARE(dialog.passwordEdit()->text(), secret);
        const QString shown = dialog.uriEdit()->text();
        QVERIFY2(!shown.contains(encodedSecret) && !shown.contains(secret), qPrintable(shown));
        QVERIFY2(!shown.contains(QStringLiteral("%40ss")), qPrintable(shown));
        // What remains is exactly what the user typed, minus the password.
        QCOMPARE(shown, QStringLiteral("mongodb://alice@db1.example.com:27018/sales"
                                       "?authSource=admin&appName=oe"));
        const ConnectionUri visible = parsed(shown);
        QCOMPARE(visible.hosts, QStringLiteral("db1.example.com:27018"));
        QCOMPARE(visible.username, QStringLiteral("alice"));
        QCOMPARE(visible.database, QStringLiteral("sales"));
        QCOMPARE(visible.authSource, QStringLiteral("admin"));
        QCOMPARE(visible.otherOptions, QStringLiteral("appName=oe"));
        QVERIFY(visible.password.isEmpty());
        QCOMPARE(dialog.hostsEdit()->text(), QStringLiteral("db1.example.com:27018"));
        QCOMPARE(dialog.userEdit()->text(), QStringLiteral("alice"));
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        QVERIFY(dialog.connectButton()->isEnabled());

        // The settings used to connect carry the password, percent-encoded...
        const QString full = dialog.settings().uri;
        QVERIFY2(full.contains(QStringLiteral("alice:") + encodedSecret + QLatin1Char('@')),
                 qPrintable(full));
        const ConnectionUri connecting = parsed(full);
        QCOMPARE(connecting.password, secret);
        QCOMPARE(connecting.hosts, QStringLiteral("db1.example.com:27018"));
        QCOMPARE(connecting.database, QStringLiteral("sales"));
        // ...what is remembered does not.
        const RecentConnection recent = dialog.recent();
        QVERIFY(!recent.uri.isEmpty());
        QVERIFY2(!recent.uri.contains(encodedSecret) && !recent.uri.contains(secret),
                 qPrintable(recent.uri));
        QVERIFY(parsed(recent.uri).password.isEmpty());
        QCOMPARE(parsed(recent.uri).username, QStringLiteral("alice"));
        QVERIFY(!recent.passwordInKeychain); // nothing ticked "remember"
    }

    void pastedUriWithPasswordIsSplitToo()
    {
        ConnectionDialog dialog(nullptr);
        dialog.uriEdit()->setFocus();
        dialog.uriEdit()->selectAll();
        QTest::keyClick(dialog.uriEdit(), Qt::Key_Backspace);
        // A paste arrives as one edit.
        dialog.uriEdit()->insert(
            QStringLiteral("mongodb://bob:Hunter2Hunter2@h1:1,h2:2/?replicaSet=rs0"));
        QCOMPARE(dialog.passwordEdit()->text(), QStringLiteral("Hunter2Hunter2"));
        QVERIFY(!dialog.uriEdit()->text().contains(QStringLiteral("Hunter2")));
        QCOMPARE(parsed(dialog.uriEdit()->text()).replicaSet, QStringLiteral("rs0"));
        QCOMPARE(parsed(dialog.settings().uri).password, QStringLiteral("Hunter2Hunter2"));
    }

    void editingTheFormRewritesTheUri()
    {
        ConnectionDialog dialog(nullptr);
        dialog.show();
        dialog.setUri(QStringLiteral("mongodb://alice@old.example.com:1/inventory?appName=oe"));
        typeInto(dialog.hostsEdit(), QStringLiteral("h1.example.com:27017,h2.example.com:27018"));
        ConnectionUri u = parsed(dialog.uriEdit()->text());
        QCOMPARE(u.hosts, QStringLiteral("h1.example.com:27017,h2.example.com:27018"));
        // What the form does not show is carried over.
        QCOMPARE(u.username, QStringLiteral("alice"));
        QCOMPARE(u.database, QStringLiteral("inventory"));
        QCOMPARE(u.otherOptions, QStringLiteral("appName=oe"));
        QVERIFY(!u.tls);
        QVERIFY(!dialog.uriEdit()->text().contains(QStringLiteral("tls=true")));

        dialog.tlsBox()->click();
        QVERIFY(dialog.tlsBox()->isChecked());
        QVERIFY2(dialog.uriEdit()->text().contains(QStringLiteral("tls=true")),
                 qPrintable(dialog.uriEdit()->text()));
        QVERIFY(parsed(dialog.uriEdit()->text()).tls);
        QVERIFY(parsed(dialog.settings().uri).tls);

        dialog.tlsBox()->click();
        QVERIFY(!dialog.uriEdit()->text().contains(QStringLiteral("tls")));
        QVERIFY(!parsed(dialog.uriEdit()->text()).tls);

        // And the other way: the URI drives the form.
        typeUri(dialog, QStringLiteral("mongodb://carol@x.example.com:27019/?tls=true"));
        QCOMPARE(dialog.hostsEdit()->text(), QStringLiteral("x.example.com:27019"));
        QCOMPARE(dialog.userEdit()->text(), QStringLiteral("carol"));
        QVERIFY(dialog.tlsBox()->isChecked());
    }

    void srvImpliesTls()
    {
        ConnectionDialog dialog(nullptr);
        dialog.show();
        typeUri(dialog, QStringLiteral("mongodb+srv://cluster0.example.net/app"));
        QCOMPARE(dialog.hostsEdit()->text(), QStringLiteral("cluster0.example.net"));
        QVERIFY(dialog.tlsBox()->isChecked()); // the driver's default for mongodb+srv

        // Turning TLS off must be said in the string, or the driver turns it back on.
        dialog.tlsBox()->click();
        QVERIFY(!parsed(dialog.uriEdit()->text()).tls);
        QVERIFY(!parsed(dialog.settings().uri).tls);
        QVERIFY(parsed(dialog.uriEdit()->text()).srv);

        // Ticking "DNS seed list" on a plain host ticks TLS as well.
        typeUri(dialog, QStringLiteral("mongodb://cluster1.example.net/app"));
        QVERIFY(!dialog.tlsBox()->isChecked());
        typeInto(dialog.hostsEdit(), QStringLiteral("cluster1.example.net"));
        QCheckBox *srv = nullptr;
        for (QCheckBox *box : dialog.findChildren<QCheckBox *>())
            if (box->text().contains(QStringLiteral("mongodb+srv")))
                srv = box;
        QVERIFY(srv);
        srv->click();
        QVERIFY(dialog.tlsBox()->isChecked());
        const ConnectionUri u = parsed(dialog.uriEdit()->text());
        QVERIFY(u.srv);
        QVERIFY(u.tls);
        QCOMPARE(u.hosts, QStringLiteral("cluster1.example.net"));
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    }

    void invalidUriDisablesConnect_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("port out of range")
            << QStringLiteral("mongodb://h:99999/") << QStringLiteral("port");
        QTest::newRow("wrong scheme")
            << QStringLiteral("http://h/") << QStringLiteral("mongodb://");
        QTest::newRow("empty host") << QStringLiteral("mongodb:///db") << QStringLiteral("host");
    }
    void invalidUriDisablesConnect()
    {
        QFETCH(QString, uri);
        QFETCH(QString, mentions);
        ConnectionDialog dialog(nullptr);
        dialog.show();
        QVERIFY(dialog.connectButton()->isEnabled()); // the default localhost URI is usable
        typeUri(dialog, uri);
        QVERIFY(!dialog.connectButton()->isEnabled());
        QVERIFY(!dialog.problem().isEmpty());
        QVERIFY2(dialog.statusLabel()->text().contains(mentions, Qt::CaseInsensitive),
                 qPrintable(dialog.statusLabel()->text()));
        QCOMPARE(dialog.uriEdit()->text(), uri); // an invalid URI is left as typed

        typeUri(dialog, QStringLiteral("mongodb://h:27017/"));
        QVERIFY(dialog.connectButton()->isEnabled());
        QVERIFY(dialog.problem().isEmpty());
    }

    void passwordNeedsAUser()
    {
        ConnectionDialog dialog(nullptr);
        dialog.show();
        dialog.setUri(QStringLiteral("mongodb://h:27017/"));
        QVERIFY(dialog.connectButton()->isEnabled());
        typeInto(dialog.passwordEdit(), QStringLiteral("lonelySecret"));
        QVERIFY(!dialog.connectButton()->isEnabled());
        QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("user"), Qt::CaseInsensitive),
                 qPrintable(dialog.statusLabel()->text()));
        QVERIFY(!dialog.uriEdit()->text().contains(QStringLiteral("lonelySecret")));

        typeInto(dialog.userEdit(), QStringLiteral("dave"));
        QVERIFY2(dialog.connectButton()->isEnabled(), qPrintable(dialog.problem()));
        QCOMPARE(parsed(dialog.uriEdit()->text()).username, QStringLiteral("dave"));
        QCOMPARE(parsed(dialog.settings().uri).password, QStringLiteral("lonelySecret"));
        QVERIFY(!dialog.uriEdit()->text().contains(QStringLiteral("lonelySecret")));
    }

    void storeKeepsTheNewestTen()
    {
        const int extra = 3;
        for (int i = 0; i < ConnectionStore::kMax + extra; ++i)
            ConnectionStore::remember(recentNamed(QStringLiteral("c%1").arg(i),
                                                  QStringLiteral("mongodb://h%1:27017/").arg(i)));
        QList<RecentConnection> list = ConnectionStore::load();
        QCOMPARE(list.size(), ConnectionStore::kMax);
        for (int k = 0; k < list.size(); ++k) {
            const int i = ConnectionStore::kMax + extra - 1 - k; // newest first
            QCOMPARE(list[k].name, QStringLiteral("c%1").arg(i));
            QCOMPARE(parsed(list[k].uri).hosts, QStringLiteral("h%1:27017").arg(i));
        }

        // Remembering a name again replaces the entry and moves it to the front.
        ConnectionStore::remember(
            recentNamed(QStringLiteral("c5"), QStringLiteral("mongodb://new:1/")));
        list = ConnectionStore::load();
        QCOMPARE(list.size(), ConnectionStore::kMax);
        QCOMPARE(list.first().name, QStringLiteral("c5"));
        QCOMPARE(parsed(list.first().uri).hosts, QStringLiteral("new:1"));
        int named = 0;
        for (const auto &r : list)
            named += r.name == QStringLiteral("c5");
        QCOMPARE(named, 1);
        QCOMPARE(list[1].name, QStringLiteral("c12"));

        ConnectionStore::forget(QStringLiteral("c12"));
        list = ConnectionStore::load();
        QCOMPARE(list.size(), ConnectionStore::kMax - 1);
        for (const auto &r : list)
            QVERIFY(r.name != QStringLiteral("c12"));
    }

    // Issue 35: a shorter list left its old tail in the settings file (QSettings keeps array
    // entries past the size written); one written by an older version kept more than kMax.
    // What is written is the list, trimmed to kMax, and nothing after it.
    void storeTrimsTheFileToTheList()
    {
        const auto groups = [] {
            QSettings settings;
            settings.beginGroup(QStringLiteral("recentConnections"));
            QStringList g = settings.childGroups();
            std::sort(g.begin(), g.end(),
                      [](const QString &a, const QString &b) { return a.toInt() < b.toInt(); });
            return g;
        };
        const auto numbered = [](int n) {
            QStringList g;
            for (int i = 1; i <= n; ++i)
                g << QString::number(i);
            return g;
        };
        {
            QSettings settings; // as a version without the limit wrote it
            settings.beginWriteArray(QStringLiteral("recentConnections"), 12);
            for (int i = 0; i < 12; ++i) {
                settings.setArrayIndex(i);
                ConnectionStore::write(settings,
                                       recentNamed(QStringLiteral("old%1").arg(i),
                                                   QStringLiteral("mongodb://old%1:1/").arg(i)));
            }
            settings.endArray();
        }
        QCOMPARE(groups(), numbered(12));
        ConnectionStore::remember(
            recentNamed(QStringLiteral("new"), QStringLiteral("mongodb://new:1/")));
        QCOMPARE(ConnectionStore::load().size(), ConnectionStore::kMax);
        QCOMPARE(groups(), numbered(ConnectionStore::kMax));
        QVERIFY(!settingsFileBytes().contains("old10:1"));
        QVERIFY(!settingsFileBytes().contains("old11:1"));

        ConnectionStore::forget(QStringLiteral("old0"));
        QCOMPARE(ConnectionStore::load().size(), ConnectionStore::kMax - 1);
        QCOMPARE(groups(), numbered(ConnectionStore::kMax - 1));
        QVERIFY(!settingsFileBytes().contains("old0:1"));
        QVERIFY(ConnectionStore::rename(QStringLiteral("new"), QStringLiteral("newer")));
        QCOMPARE(groups(), numbered(ConnectionStore::kMax - 1));
    }

    // Issue 35: after Test connection the focus was on Cancel (the test button, disabled while
    // it tests, passed it on), so Enter cancelled. The default button keeps it: Enter connects.
    void enterConnectsAfterTestConnection()
    {
        ConnectionDialog dialog(nullptr);
        dialog.setUri(QStringLiteral("mongodb://127.0.0.1:1/"
                                     "?serverSelectionTimeoutMS=500&connectTimeoutMS=500"));
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QPushButton *test = nullptr;
        for (auto *b : dialog.findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("&Test connection"))
                test = b;
        QVERIFY(test);
        QVERIFY(dialog.connectButton()->isDefault());
        QSignalSpy finished(&dialog, &ConnectionDialog::testFinished);
        QTest::mouseClick(test, Qt::LeftButton); // the focus goes to the button, as by hand
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QVERIFY(test->isEnabled());
        QWidget *focus = QApplication::focusWidget();
        QVERIFY2(
            focus == dialog.connectButton(),
            focus ? qPrintable(focus->objectName() + QLatin1Char(' ') +
                               QString::fromLatin1(focus->metaObject()->className()) +
                               (qobject_cast<QPushButton *>(focus)
                                    ? QLatin1Char(' ') + qobject_cast<QPushButton *>(focus)->text()
                                    : QString()))
                  : "no focus");
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    void storeNeverWritesThePassword()
    {
        const QByteArray secret = "Zq7SecretPw";
        RecentConnection r;
        r.name = QStringLiteral("prod");
        r.uri = QStringLiteral("mongodb://erin:Zq7SecretPw%21@prod.example.com:27017/app");
        r.tlsCaFile = QStringLiteral("/etc/ssl/ca.pem");
        r.passwordInKeychain = true;
        ConnectionStore::remember(r);
        // Unparsable, so it cannot be checked for a password: not stored at all.
        ConnectionStore::remember(recentNamed(
            QStringLiteral("broken"), QStringLiteral("mongodb://erin:Zq7SecretPw@h:99999/")));

        const QList<RecentConnection> list = ConnectionStore::load();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().name, QStringLiteral("prod"));
        QVERIFY(!list.first().uri.contains(QLatin1String(secret)));
        const ConnectionUri stored = parsed(list.first().uri);
        QCOMPARE(stored.username, QStringLiteral("erin"));
        QCOMPARE(stored.hosts, QStringLiteral("prod.example.com:27017"));
        QVERIFY(stored.password.isEmpty());
        QCOMPARE(list.first().tlsCaFile, QStringLiteral("/etc/ssl/ca.pem"));
        QVERIFY(list.first().passwordInKeychain);

        const QByteArray file = settingsFileBytes();
        QVERIFY2(file.contains("prod.example.com"), file.constData()); // the file is the store
        QVERIFY2(!file.contains(secret), file.constData());
    }

    void dialogRecentThroughTheStoreHasNoPassword()
    {
        {
            ConnectionDialog dialog(nullptr);
            dialog.setUri(QStringLiteral("mongodb://frank:Yy8OtherPw@store.example.com:27017/"));
            QCOMPARE(dialog.password(), QStringLiteral("Yy8OtherPw"));
            ConnectionStore::remember(dialog.recent());
        }
        QVERIFY(!settingsFileBytes().contains("Yy8OtherPw"));
        // A new dialog lists it, and choosing it does not bring a password back.
        ConnectionDialog again(nullptr);
        const QList<RecentConnection> list = ConnectionStore::load();
        QCOMPARE(list.size(), 1);
        QCOMPARE(parsed(list.first().uri).hosts, QStringLiteral("store.example.com:27017"));
        QVERIFY(again.passwordEdit()->text().isEmpty());
    }

    // Remove takes the chosen connection out of the list: from the dialog at once and from the
    // store, so the next dialog does not offer it either; the others stay in their order.
    void removeForgetsTheChosenConnection()
    {
        for (const QString &name : {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")})
            ConnectionStore::remember(
                recentNamed(name, QStringLiteral("mongodb://%1.example.com:27017/").arg(name)));
        {
            ConnectionDialog dialog(nullptr);
            dialog.show();
            QCOMPARE(dialog.recentBox()->count(), 4); // "New connection" and c, b, a
            QVERIFY(!dialog.removeRecentButton()->isEnabled());
            dialog.recentBox()->setCurrentIndex(2); // b
            QVERIFY(dialog.removeRecentButton()->isEnabled());
            QCOMPARE(dialog.hostsEdit()->text(), QStringLiteral("b.example.com:27017"));
            QTest::mouseClick(dialog.removeRecentButton(), Qt::LeftButton);
            QCOMPARE(dialog.recentBox()->count(), 3);
            QCOMPARE(dialog.recentBox()->currentIndex(), 0);
            QVERIFY(!dialog.removeRecentButton()->isEnabled());
            QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("Removed b")),
                     qPrintable(dialog.statusLabel()->text()));
            for (int i = 1; i < dialog.recentBox()->count(); ++i)
                QVERIFY(!dialog.recentBox()->itemText(i).startsWith(QStringLiteral("b ")));
        }
        QStringList names;
        for (const RecentConnection &r : ConnectionStore::load())
            names << r.name;
        QCOMPARE(names, QStringList({QStringLiteral("c"), QStringLiteral("a")}));
        ConnectionDialog again(nullptr);
        QCOMPARE(again.recentBox()->count(), 3);
    }

    // A renamed connection keeps its place and URI; a name taken by another is refused. A URI
    // finds its saved connection whatever password it carries.
    void storeRenamesAndFindsByUri()
    {
        ConnectionStore::remember(
            recentNamed(QStringLiteral("old"), QStringLiteral("mongodb://gina@one.example.com/")));
        ConnectionStore::remember(
            recentNamed(QStringLiteral("other"), QStringLiteral("mongodb://two.example.com/")));
        QVERIFY(!ConnectionStore::rename(QStringLiteral("old"), QStringLiteral("other")));
        QVERIFY(!ConnectionStore::rename(QStringLiteral("missing"), QStringLiteral("x")));
        QVERIFY(ConnectionStore::rename(QStringLiteral("old"), QStringLiteral("reporting")));
        const QList<RecentConnection> list = ConnectionStore::load();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list[1].name, QStringLiteral("reporting"));
        QCOMPARE(parsed(list[1].uri).hosts, QStringLiteral("one.example.com:27017"));

        const auto found =
            ConnectionStore::findByUri(QStringLiteral("mongodb://gina:Secret9@one.example.com/"));
        QVERIFY(found.has_value());
        QCOMPARE(found->name, QStringLiteral("reporting"));
        QVERIFY(!ConnectionStore::findByUri(QStringLiteral("mongodb://gina@three.example.com/")));
        QVERIFY(!ConnectionStore::findByUri(QStringLiteral("not a uri")));
    }

    void testConnectionReportsAnUnreachableServer()
    {
        ConnectionDialog dialog(nullptr);
        dialog.setUri(QStringLiteral("mongodb://grace:Qx9UnreachablePw@127.0.0.1:1/"
                                     "?serverSelectionTimeoutMS=500&connectTimeoutMS=500"));
        QCOMPARE(dialog.password(), QStringLiteral("Qx9UnreachablePw"));
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        QSignalSpy finished(&dialog, &ConnectionDialog::testFinished);
        dialog.testConnection();
        QVERIFY(!dialog.statusLabel()->text().contains(QStringLiteral("Qx9UnreachablePw")));
        QVERIFY(finished.wait(15000));
        QCOMPARE(finished.size(), 1);
        const bool ok = finished.first().at(0).toBool();
        const QString text = finished.first().at(1).toString();
        qInfo("test connection said: %s", qPrintable(text));
        QVERIFY(!ok);
        QVERIFY2(text.contains(QStringLiteral("127.0.0.1:1")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("Qx9UnreachablePw")), qPrintable(text));
        QVERIFY(!dialog.statusLabel()->text().contains(QStringLiteral("Qx9UnreachablePw")));
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("127.0.0.1:1")));
    }
};

QTEST_MAIN(TestConnectionDialog)
#include "tst_connectiondialog.moc"
