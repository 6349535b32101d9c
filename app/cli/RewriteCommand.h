#pragma once

#include <QStringList>

// `rewrite`: an in-place rewrite of one field of a live collection (core's RewriteSession):
// keys used as data to an array of {k, v} (--keys-to-array), or a mixed-type field converted
// where that is exact (--convert-to). Without --yes it previews every change and every value
// it cannot rewrite (--preview-csv FILE has them all); with --yes it applies, journaled and
// resumable; --verify checks it; --rollback --yes puts the values back.
class RewriteCommand
{
public:
    static int run(const QStringList &arguments);
};
