#include "DemoDataCommand.h"

#include "CliSupport.h"
#include "demo/DemoDataGenerator.h"

#include <QCommandLineParser>
#include <QDir>

#include <cstdio>

int DemoDataCommand::run(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Write deterministic demo datasets as .bson files."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("out"),
                      QStringLiteral("Directory to write <dataset>.bson into."),
                      QStringLiteral("DIR")});
    QStringList names;
    for (const auto &d : oe::DemoDataGenerator::datasets())
        names << d.name;
    parser.addOption({QStringLiteral("dataset"),
                      QStringLiteral("One dataset (%1); default: all demo datasets.")
                          .arg(names.join(QStringLiteral(", "))),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("docs"),
                      QStringLiteral("Number of documents (with --dataset)."),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("seed"),
                      QStringLiteral("Random seed (default %1, as the desktop demo).")
                          .arg(oe::DemoDataGenerator::kDemoSeed),
                      QStringLiteral("S")});
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    if (!parser.isSet(QStringLiteral("out")))
        return cli::fail(ExitUsage, QStringLiteral("demo-data needs --out DIR"));
    std::optional<std::uint64_t> docs, seed;
    if (!cli::unsignedOption(parser, QStringLiteral("docs"), docs, 1, 10'000'000) ||
        !cli::unsignedOption(parser, QStringLiteral("seed"), seed))
        return ExitUsage;
    const QString dir = parser.value(QStringLiteral("out"));
    QString error;
    QStringList written;
    if (parser.isSet(QStringLiteral("dataset"))) {
        const QString name = parser.value(QStringLiteral("dataset"));
        if (!names.contains(name))
            return cli::fail(ExitUsage, QStringLiteral("unknown dataset '%1' (choose from %2)")
                                            .arg(name, names.join(QStringLiteral(", "))));
        if (!QDir().mkpath(dir))
            return cli::fail(ExitIo, QStringLiteral("%1: cannot create directory").arg(dir));
        const QString path = QDir(dir).filePath(name + QStringLiteral(".bson"));
        if (!oe::DemoDataGenerator::write(name, path, docs.value_or(0),
                                          seed.value_or(oe::DemoDataGenerator::kDemoSeed), &error))
            return cli::fail(ExitIo, error);
        written << path;
    } else {
        if (docs)
            return cli::fail(ExitUsage, QStringLiteral("--docs goes with --dataset"));
        if (!oe::DemoDataGenerator::writeDemo(dir, seed.value_or(oe::DemoDataGenerator::kDemoSeed),
                                              &written, &error))
            return cli::fail(ExitIo, error);
    }
    for (const QString &path : written)
        std::printf("%s\n", qPrintable(path));
    return ExitSuccess;
}
