#pragma once

// Internal to core: the steps RewriteSession's apply, verify and rollback share: a round of
// journaled entries moved and settled (the side store's values put and tidied, each entry's
// state recorded, what the application's writes won counted and listed), one applied entry
// verified, and the rows the reports list.

#include "remedy/RewriteConfig.h"
#include "remedy/RewriteReport.h"
#include "remedy/internal/RewriteJournal.h"
#include "remedy/internal/RewriteTarget.h"
#include "remedy/internal/SideStore.h"

#include <optional>
#include <vector>

namespace oe::rewritesteps {

RewriteRow rowOf(RewriteRow::Kind kind, const QByteArray &id, const QByteArray &before,
                 const QByteArray &after = {}, const QString &why = {});
// `row` kept in `rows` while they hold fewer than RewriteSession::kListedRows.
void list(std::vector<RewriteRow> *rows, RewriteRow row);
// The entries moved (forward: before -> after; back: after -> before) and settled; false with
// `error` set (a stuck entry too: left pending for the next run).
bool settleEntries(RewriteTarget &target, RewriteJournal &journal, SideStore *side,
                   std::vector<RewriteEntry> &entries, bool forward, RewriteProgress *progress,
                   SourceError *error);
// One applied entry checked: its after recomputed from its before, the document holding the
// after (or rewritten since, or gone), and a side store's value whole.
void verifyEntry(const RewriteConfig &config, const RewriteEntry &e,
                 const std::optional<QByteArray> &now, const std::optional<QByteArray> &stored,
                 RewriteVerify *verify);

} // namespace oe::rewritesteps
