// The shareable report with hostile data (issue 24.3 and 24.4): field names and _ids that are
// HTML, SVG or CDATA syntax come out as text, never markup (in the tables, the captions and the
// charts' SVG titles alike), under a Content-Security-Policy that runs no script; a megabyte
// _id is shown shortened, and the PDF with it is written in seconds, not minutes.
#include "CliRunner.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <bson/bson.h>

namespace {

const QString kScript = QStringLiteral("<script>alert(1)</script>");
const QString kImage = QStringLiteral("\"><img src=x onerror=alert(2)>");
const QString kCdata = QStringLiteral("]]><svg onload=alert(3)>");
const QString kQuotes = QStringLiteral("a&b 'single' \"double\"");

void appendUtf8(bson_t *doc, const QString &key, const QString &value)
{
    const QByteArray k = key.toUtf8(), v = value.toUtf8();
    bson_append_utf8(doc, k.constData(), int(k.size()), v.constData(), int(v.size()));
}

void appendArray(bson_t *doc, const QString &key, int length)
{
    const QByteArray k = key.toUtf8();
    bson_t array;
    bson_append_array_begin(doc, k.constData(), int(k.size()), &array);
    for (int i = 0; i < length; ++i) {
        char index[16];
        const char *name = nullptr;
        bson_uint32_to_string(std::uint32_t(i), &name, index, sizeof index);
        bson_append_int32(&array, name, -1, i);
    }
    bson_append_array_end(doc, &array);
}

// One document: `id` (an int when empty), the two hostile arrays, a hostile scalar field.
QByteArray document(int n, const QString &id, int length)
{
    bson_t doc;
    bson_init(&doc);
    if (id.isEmpty())
        bson_append_int32(&doc, "_id", 3, n);
    else
        appendUtf8(&doc, QStringLiteral("_id"), id);
    appendArray(&doc, kScript, length);
    appendArray(&doc, kImage, length / 2);
    appendUtf8(&doc, kCdata, kQuotes);
    const QByteArray bytes(reinterpret_cast<const char *>(bson_get_data(&doc)), qsizetype(doc.len));
    bson_destroy(&doc);
    return bytes;
}

// 300 ordinary documents and the outliers with these _ids (long arrays).
bool writeDump(const QString &path, const QStringList &outlierIds)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    for (int i = 0; i < 300; ++i)
        f.write(document(i, {}, i % 10));
    for (const QString &id : outlierIds)
        f.write(document(0, id, 400));
    return f.error() == QFileDevice::NoError;
}

QString textOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString pdfText(const QString &path)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

class TestReportSafety : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void hostileNamesAreTextNeverMarkup()
    {
        const QString dump = m_dir.filePath(QStringLiteral("hostile.bson"));
        QVERIFY(writeDump(dump, {kScript, kImage, kCdata, kQuotes}));
        const QString out = m_dir.filePath(QStringLiteral("hostile.html"));
        const CliRun r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), dump,
                                 QStringLiteral("--out"), out},
                                120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString html = textOf(out);
        QVERIFY(html.size() > 1000);
        // No markup from the data: no script, no element with an event handler, no image.
        QVERIFY2(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive),
                 qPrintable(html.mid(html.indexOf(QStringLiteral("<script")) - 200, 400)));
        static const QRegularExpression handler(QStringLiteral("<[^>]*\\son[a-z]+\\s*="),
                                                QRegularExpression::CaseInsensitiveOption);
        QVERIFY2(!html.contains(handler), qPrintable(handler.match(html).captured(0)));
        QVERIFY(!html.contains(QStringLiteral("<img"), Qt::CaseInsensitive));
        QVERIFY(!html.contains(QStringLiteral("<svg onload")));
        // ... yet the names are there, as text.
        QVERIFY(html.contains(kScript.toHtmlEscaped()));
        QVERIFY(html.contains(kCdata.toHtmlEscaped()) || html.contains(QStringLiteral("]]&gt;")));
        QVERIFY(html.contains(QStringLiteral("a&amp;b")));
        // A policy that runs no script and fetches nothing, should anything slip through.
        QVERIFY(html.contains(QStringLiteral("<meta http-equiv=\"Content-Security-Policy\" "
                                             "content=\"default-src 'none';")));
        // Each inline chart is well-formed XML with no script and no handler, its title the
        // field's name as text.
        static const QRegularExpression svgRe(QStringLiteral("<svg[\\s\\S]*?</svg>"));
        int charts = 0;
        bool titled = false;
        for (auto m = svgRe.globalMatch(html); m.hasNext(); ++charts) {
            QXmlStreamReader xml(m.next().captured(0));
            while (!xml.atEnd()) {
                if (xml.readNext() != QXmlStreamReader::StartElement)
                    continue;
                QVERIFY(xml.name() != QLatin1String("script"));
                for (const QXmlStreamAttribute &a : xml.attributes())
                    QVERIFY2(!a.name().startsWith(QLatin1String("on")),
                             qPrintable(a.name().toString()));
                if (xml.name() == QLatin1String("title") && xml.readElementText().contains(kScript))
                    titled = true;
            }
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        }
        QVERIFY(charts >= 2); // sizes, and the array named <script>…
        QVERIFY(titled);
    }

    // Issue 24.4: a 1 MB string _id made the PDF take over five minutes (layout of one huge
    // unbreakable word). Shortened for display, with its full length noted.
    void aMegabyteIdIsShortened()
    {
        const QString dump = m_dir.filePath(QStringLiteral("longid.bson"));
        QVERIFY(writeDump(dump, {QString(1 << 20, QLatin1Char('x'))}));
        for (const char *name : {"longid.pdf", "longid.html"}) {
            const QString out = m_dir.filePath(QString::fromLatin1(name));
            QElapsedTimer clock;
            clock.start();
            const CliRun r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), dump,
                                     QStringLiteral("--out"), out},
                                    240000);
            qInfo("%s with a 1 MiB _id: %.1f s", name, double(clock.elapsed()) / 1000.0);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY(clock.elapsed() < 120000); // well within the test's timeout
            QString text = out.endsWith(QLatin1String(".pdf")) ? pdfText(out) : textOf(out);
            QVERIFY2(!text.isEmpty(), "pdftotext (poppler-utils) could not read the PDF");
            // The PDF wraps the shortened value inside its table cell: compared without spaces.
            static const QRegularExpression space(QStringLiteral("\\s+"));
            text.remove(space);
            static const QRegularExpression shortened(
                QStringLiteral("x{150,200}…\\([^)]+characters\\)"));
            QVERIFY2(text.contains(shortened), qPrintable(text.left(3000)));
            QVERIFY(!text.contains(QString(1000, QLatin1Char('x'))));
        }
    }
};

QTEST_GUILESS_MAIN(TestReportSafety)
#include "tst_reportsafety.moc"
