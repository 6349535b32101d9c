#include "remedy/internal/RewriteSteps.h"

#include "bson/BsonTypes.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/RewriteSession.h"
#include "remedy/ValueRewriter.h"
#include "remedy/internal/FieldsDocument.h"

namespace oe::rewritesteps {

namespace {

constexpr int kShownChars = 500;

constexpr qsizetype kShownBytes = 64 * 1024; // past this, a value is shown by its size

QString shown(const QByteArray &raw)
{
    if (raw.size() > kShownBytes)
        return QStringLiteral("(%1 of %2 bytes)")
            .arg(BsonTypes::names(BsonTypes::bit(std::uint8_t(raw.at(0))))
                     .value(0, QStringLiteral("a value")))
            .arg(raw.size() - 1);
    QString json = ValueRewriter::toJson(raw);
    if (json.size() > kShownChars)
        json = json.left(kShownChars) + QStringLiteral("…");
    return json;
}

// The journaled entries of a round moved (forward: before -> after; back: after -> before),
// their states recorded, and what the application's writes won counted and listed.
// An extraction's side collection: each value stored before its document is changed; taken
// away where the document kept it (the application's write won, or it was deleted) or got it
// back (rolled back). A value the application rewrote after the extraction stays there.
bool putSide(SideStore *side, const std::vector<RewriteEntry> &entries, bool forward,
             SourceError *error)
{
    return !side || !forward || side->put(entries, error);
}

bool tidySide(SideStore *side, const std::vector<RewriteEntry> &entries,
              const std::vector<RewriteTarget::Landed> &landed, bool forward, SourceError *error)
{
    if (!side)
        return true;
    std::vector<RewriteEntry> taken;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const bool done = landed[i] == RewriteTarget::Landed::Done;
        const bool gone = landed[i] == RewriteTarget::Landed::Deleted;
        const bool kept = landed[i] == RewriteTarget::Landed::ChangedSince;
        const bool unflagged = landed[i] == RewriteTarget::Landed::ChangedUnflagged;
        if (forward ? (kept || gone) : (done || gone || unflagged))
            taken.push_back(entries[i]);
    }
    return taken.empty() || side->remove(taken, error);
}

} // namespace

RewriteRow rowOf(RewriteRow::Kind kind, const QByteArray &id, const QByteArray &before,
                 const QByteArray &after, const QString &why)
{
    return {kind, ValueRewriter::toJson(id), before.isEmpty() ? QString() : shown(before),
            after.isEmpty() ? QString() : shown(after), why};
}

void list(std::vector<RewriteRow> *rows, RewriteRow row)
{
    if (rows->size() < RewriteSession::kListedRows)
        rows->push_back(std::move(row));
}

bool settleEntries(RewriteTarget &target, RewriteJournal &journal, SideStore *side,
                   std::vector<RewriteEntry> &entries, bool forward, RewriteProgress *progress,
                   SourceError *error)
{
    std::vector<RewriteTarget::Move> moves;
    for (const RewriteEntry &e : entries)
        moves.push_back(forward ? RewriteTarget::Move{e.id, e.before, e.after}
                                : RewriteTarget::Move{e.id, e.after, e.before});
    if (!putSide(side, entries, forward, error))
        return false;
    const std::vector<RewriteTarget::Landed> landed = target.settle(moves, forward, error);
    if (landed.size() != entries.size() || !tidySide(side, entries, landed, forward, error))
        return false;
    const QString keptWhere =
        side ? QStringLiteral(" (the extracted value stays in the side collection)") : QString();
    std::size_t stuck = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        RewriteEntry &e = entries[i];
        switch (landed[i]) {
        case RewriteTarget::Landed::Done:
            e.state = forward ? RewriteEntryState::Applied : RewriteEntryState::RolledBack;
            ++progress->rewritten;
            break;
        case RewriteTarget::Landed::ChangedSince:
        case RewriteTarget::Landed::ChangedUnflagged:
            e.state = forward ? RewriteEntryState::ChangedSince : RewriteEntryState::Kept;
            ++progress->changedSince;
            list(&progress->rows,
                 rowOf(RewriteRow::Kind::ChangedSince, e.id, target.touched(e.before), e.after,
                       forward
                           ? QStringLiteral("the application rewrote it first: its value "
                                            "is kept")
                           : QStringLiteral("the application rewrote it after the "
                                            "rewrite: its value is kept") +
                                 (landed[i] == RewriteTarget::Landed::ChangedSince ? keptWhere
                                                                                   : QString())));
            break;
        case RewriteTarget::Landed::Deleted:
            e.state = RewriteEntryState::Deleted;
            ++progress->deleted;
            list(&progress->rows, rowOf(RewriteRow::Kind::Deleted, e.id, target.touched(e.before),
                                        e.after, QStringLiteral("deleted meanwhile")));
            break;
        case RewriteTarget::Landed::Stuck: // left pending: the next run settles it
            ++stuck;
            break;
        }
    }
    if (!journal.mark(entries, error))
        return false;
    if (stuck > 0)
        *error = SourceError::io(
            QString(), QStringLiteral("%1 documents held their old value again each time they "
                                      "were written (an application writing them back and "
                                      "forth): they are left journaled as pending; run it again")
                           .arg(stuck));
    return stuck == 0;
}

// One applied entry checked: its after recomputed from its before, the document holding the
// after (or rewritten since, or gone), and an extraction's value whole in its side collection.
void verifyEntry(const RewriteConfig &config, const RewriteEntry &e,
                 const std::optional<QByteArray> &now, const std::optional<QByteArray> &stored,
                 RewriteVerify *verify)
{
    const Remedy &remedy = RemedyRegistry::of(config.kind);
    const RewriteResult again = remedy.rewrite(config, e.before);
    // A Fields remedy's before is the whole document: its touched fields are shown.
    const QByteArray before =
        remedy.unit() == Remedy::Unit::Fields
            ? FieldsDocument::touched(remedy.movedFields(config) + remedy.madeFields(config),
                                      e.before)
            : e.before;
    const bool same = remedy.sameAfter(again.after, e.after);
    if (again.outcome != RewriteResult::Outcome::Changed || !same) {
        ++verify->mismatched;
        list(&verify->rows, rowOf(RewriteRow::Kind::Mismatch, e.id, before, e.after,
                                  QStringLiteral("the journal's after is not the rewrite of its "
                                                 "before")));
    } else if (!now) {
        ++verify->deleted;
        list(&verify->rows, rowOf(RewriteRow::Kind::Deleted, e.id, before, e.after,
                                  QStringLiteral("deleted since")));
    } else if (stored != e.before) {
        ++verify->mismatched;
        list(&verify->rows,
             rowOf(RewriteRow::Kind::Mismatch, e.id, before, e.after,
                   QStringLiteral("%1 does not hold its value").arg(config.storeName())));
    } else if (*now == e.after) {
        ++verify->matching;
    } else {
        ++verify->changedSince;
        list(&verify->rows, rowOf(RewriteRow::Kind::ChangedSince, e.id, before, *now,
                                  QStringLiteral("the application rewrote it since")));
    }
}

} // namespace oe::rewritesteps
