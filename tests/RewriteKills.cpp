#include "RewriteKills.h"

#include "CliRunner.h"
#include "KillTrials.h"

namespace fixtures {

QString rewriteSurvivesKills(const QStringList &args, int documents, bool mongod)
{
    // 4 kills within 600 ms each at R documents a second rewrite at most 2.4 R documents: each
    // run is interrupted part-way, whatever the server's speed.
    const QStringList paced{QStringLiteral("--yes"), QStringLiteral("--batch"),
                            mongod ? QStringLiteral("25") : QStringLiteral("5"),
                            QStringLiteral("--max-docs-per-sec"),
                            mongod ? QStringLiteral("100") : QStringLiteral("20")};
    const QString cli = qEnvironmentVariable("OE_CLI");
    const int applyKills = mongod ? 4 : 2;
    const KillTrials kills = KillTrials::run(cli, args + paced, applyKills);
    if (kills.killed != applyKills)
        return QStringLiteral("applying: %1").arg(kills.summary());
    CliRun r = runCli(args + QStringList{QStringLiteral("--yes")});
    if (r.exitCode != 0 || !r.out.contains(QStringLiteral("resuming an interrupted rewrite")))
        return QStringLiteral("resuming: ") + r.out + r.err;
    r = runCli(args + QStringList{QStringLiteral("--verify")});
    if (r.exitCode != 0 ||
        !r.out.contains(QStringLiteral("%1 entries (the run recorded %1); holding the rewrite: "
                                       "%1;")
                            .arg(documents)))
        return QStringLiteral("verifying: ") + r.out + r.err;
    const QStringList rollback = args + QStringList{QStringLiteral("--rollback")};
    // A rollback after a killed run waits for it to be gone: FerretDB lists no connections, so
    // that is a settling time a kill; its killed rollback is proven on mongod.
    if (mongod) {
        const KillTrials rollbackKills = KillTrials::run(cli, rollback + paced, 2);
        if (rollbackKills.killed != 2)
            return QStringLiteral("rolling back: %1").arg(rollbackKills.summary());
    }
    r = runCli(rollback + QStringList{QStringLiteral("--yes")});
    if (r.exitCode != 0)
        return QStringLiteral("rolling back: ") + r.out + r.err;
    return {};
}

} // namespace fixtures
