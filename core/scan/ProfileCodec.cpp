#include "scan/ProfileCodec.h"

#include <QDataStream>
#include <QIODevice>

namespace oe {

namespace {
constexpr quint32 kMagic = 0x4f455046; // "OEPF"
constexpr quint32 kVersion = 4;
// Version 1: fields without lengthsOnly (it reads as false). Version 2: each field ends with it.
// Version 3: each field's shape after it, and the documents' shape after the fields (a state
// of version 1 or 2 reads without them: its documents count as not walked, so the shape of a
// scan resumed from it is not reported). Version 4: the version tally last (a state of an
// older version reads without it: no field was watched in its documents, so the versions of a
// scan resumed from it are not reported).
} // namespace

struct ProfileCodec::Writer
{
    QDataStream &out;

    void text(const std::string &s) { out << QByteArray::fromStdString(s); }
    void counts(const std::vector<std::uint64_t> &v)
    {
        out << quint64(v.size());
        for (std::uint64_t c : v)
            out << quint64(c);
    }
    void distribution(const Distribution &d)
    {
        out << quint64(d.m_count) << quint64(d.m_min) << quint64(d.m_max) << quint64(d.m_sum);
        counts(d.m_sketch.m_counts);
        out << quint64(d.m_sketch.m_count);
        counts(d.m_histogram.m_counts);
        out << quint64(d.m_histogram.m_total);
    }
    void candidates(const std::vector<TailCandidate> &v)
    {
        out << quint64(v.size());
        for (const TailCandidate &c : v) {
            out << quint64(c.value) << quint64(c.docIndex) << quint64(c.docSize);
            text(c.rawId);
            text(c.path);
        }
    }
    void tail(const CandidateTail &t)
    {
        out << quint64(t.m_capacity) << quint64(t.m_keepAbove);
        candidates(t.m_kept);
        candidates(t.m_items);
        out << t.m_hasCutoff << quint64(t.m_cutoffValue) << quint64(t.m_cutoffDoc) << t.m_dropped
            << quint64(t.m_droppedMax);
    }
    void field(const FieldProfile &f)
    {
        text(f.path);
        out << quint32(f.typeMask) << quint32(f.elementTypeMask) << quint64(f.presentDocuments)
            << quint64(f.values) << quint64(f.bytes) << quint64(f.arrays);
        distribution(f.lengths);
        out << quint64(f.elementCount) << quint64(f.elementBytes) << f.insideArray
            << qint32(f.depth);
        tail(f.longestPerDocument);
        out << f.lengthsOnly;
        fieldShape(f.shape);
    }
    void types(const TypeCounts &t)
    {
        for (std::uint64_t n : t.n)
            out << quint64(n);
    }
    void fieldShape(const FieldShape &s)
    {
        types(s.types);
        types(s.elementTypes);
        out << quint64(s.examples.size());
        for (const ShapeExample &e : s.examples) {
            out << qint32(e.slot) << quint64(e.docIndex);
            text(e.rawId);
        }
        distribution(s.keyCounts);
        out << quint64(s.distinctKeys) << quint64(s.keysPastCap) << quint32(s.dataLikeKeys)
            << s.keysAsData;
        tail(s.mostKeys);
        out << quint64(s.bigValues);
        tail(s.biggestValues);
    }
    void examples(const std::vector<ShapeExample> &v)
    {
        out << quint64(v.size());
        for (const ShapeExample &e : v) {
            out << qint32(e.slot) << quint64(e.docIndex);
            text(e.rawId);
        }
    }
    void versions(const VersionTally &t)
    {
        out << quint64(t.fields.size());
        for (const VersionTally::Field &f : t.fields) {
            text(f.name);
            out << quint64(f.watched) << quint64(f.present) << quint64(f.unfit) << f.tooManyValues;
            distribution(f.restFieldCounts);
            distribution(f.restDepths);
            out << quint64(f.groups.size());
            for (const VersionTally::Group &g : f.groups) {
                text(g.raw);
                out << quint64(g.documents);
                distribution(g.fieldCounts);
                distribution(g.depths);
                out << quint64(g.paths.size());
                for (const VersionTally::Path &p : g.paths) {
                    text(p.path);
                    out << quint64(p.presentDocuments);
                    types(p.types);
                    types(p.elementTypes);
                    examples(p.examples);
                }
            }
        }
    }
    void documentShape(const DocumentShape &s)
    {
        distribution(s.fieldCounts);
        distribution(s.depths);
        tail(s.mostFields);
        tail(s.deepest);
        out << quint64(s.bigScalarBytes);
    }
};

struct ProfileCodec::Reader
{
    QDataStream &in;
    quint32 version = kVersion;

    std::uint64_t u64()
    {
        quint64 v = 0;
        in >> v;
        return v;
    }
    std::string text()
    {
        QByteArray b;
        in >> b;
        return b.toStdString();
    }
    bool flag()
    {
        bool b = false;
        in >> b;
        return b;
    }
    // Sizes come from the file: a corrupt one must not ask for a huge allocation.
    bool size(std::uint64_t *n)
    {
        *n = u64();
        return in.status() == QDataStream::Ok && *n <= (1u << 26);
    }
    bool counts(std::vector<std::uint64_t> *v)
    {
        std::uint64_t n = 0;
        if (!size(&n))
            return false;
        v->resize(std::size_t(n));
        for (auto &c : *v)
            c = u64();
        return in.status() == QDataStream::Ok;
    }
    bool distribution(Distribution *d)
    {
        d->m_count = u64();
        d->m_min = u64();
        d->m_max = u64();
        d->m_sum = u64();
        if (!counts(&d->m_sketch.m_counts))
            return false;
        d->m_sketch.m_count = u64();
        if (!counts(&d->m_histogram.m_counts))
            return false;
        d->m_histogram.m_total = u64();
        return in.status() == QDataStream::Ok;
    }
    bool candidates(std::vector<TailCandidate> *v)
    {
        std::uint64_t n = 0;
        if (!size(&n))
            return false;
        v->resize(std::size_t(n));
        for (TailCandidate &c : *v) {
            c.value = u64();
            c.docIndex = u64();
            c.docSize = u64();
            c.rawId = text();
            c.path = text();
        }
        return in.status() == QDataStream::Ok;
    }
    bool tail(CandidateTail *t)
    {
        t->m_capacity = std::size_t(u64());
        t->m_keepAbove = u64();
        if (!candidates(&t->m_kept) || !candidates(&t->m_items))
            return false;
        t->m_hasCutoff = flag();
        t->m_cutoffValue = u64();
        t->m_cutoffDoc = u64();
        t->m_dropped = flag();
        t->m_droppedMax = u64();
        return in.status() == QDataStream::Ok;
    }
    bool field(FieldProfile *f)
    {
        f->path = text();
        quint32 types = 0, elementTypes = 0;
        in >> types >> elementTypes;
        f->typeMask = types;
        f->elementTypeMask = elementTypes;
        f->presentDocuments = u64();
        f->values = u64();
        f->bytes = u64();
        f->arrays = u64();
        if (!distribution(&f->lengths))
            return false;
        f->elementCount = u64();
        f->elementBytes = u64();
        f->insideArray = flag();
        qint32 depth = 0;
        in >> depth;
        f->depth = depth;
        if (!tail(&f->longestPerDocument))
            return false;
        f->lengthsOnly = version >= 2 && flag();
        if (version >= 3 && !fieldShape(&f->shape))
            return false;
        return in.status() == QDataStream::Ok;
    }
    void types(TypeCounts *t)
    {
        for (std::uint64_t &n : t->n)
            n = u64();
    }
    bool fieldShape(FieldShape *s)
    {
        types(&s->types);
        types(&s->elementTypes);
        std::uint64_t n = 0;
        if (!size(&n))
            return false;
        s->examples.resize(std::size_t(n));
        for (ShapeExample &e : s->examples) {
            qint32 slot = 0;
            in >> slot;
            e.slot = slot;
            e.docIndex = u64();
            e.rawId = text();
        }
        if (!distribution(&s->keyCounts))
            return false;
        s->distinctKeys = u64();
        s->keysPastCap = u64();
        quint32 dataLike = 0;
        in >> dataLike;
        s->dataLikeKeys = dataLike;
        s->keysAsData = flag();
        if (!tail(&s->mostKeys))
            return false;
        s->bigValues = u64();
        return tail(&s->biggestValues);
    }
    bool examples(std::vector<ShapeExample> *v)
    {
        std::uint64_t n = 0;
        if (!size(&n))
            return false;
        v->resize(std::size_t(n));
        for (ShapeExample &e : *v) {
            qint32 slot = 0;
            in >> slot;
            if (slot < 0 || slot > FieldShape::presenceSlot)
                return false;
            e.slot = slot;
            e.docIndex = u64();
            e.rawId = text();
        }
        return in.status() == QDataStream::Ok;
    }
    bool versionGroup(VersionTally::Group *g)
    {
        g->raw = text();
        g->documents = u64();
        if (!distribution(&g->fieldCounts) || !distribution(&g->depths))
            return false;
        std::uint64_t n = 0;
        if (!size(&n))
            return false;
        g->paths.resize(std::size_t(n));
        for (VersionTally::Path &p : g->paths) {
            p.path = text();
            p.presentDocuments = u64();
            types(&p.types);
            types(&p.elementTypes);
            if (!examples(&p.examples))
                return false;
        }
        return true;
    }
    bool versions(VersionTally *t)
    {
        std::uint64_t n = 0;
        if (!size(&n))
            return false;
        t->fields.resize(std::size_t(n));
        for (VersionTally::Field &f : t->fields) {
            f.name = text();
            f.watched = u64();
            f.present = u64();
            f.unfit = u64();
            f.tooManyValues = flag();
            if (!distribution(&f.restFieldCounts) || !distribution(&f.restDepths))
                return false;
            std::uint64_t groups = 0;
            if (!size(&groups))
                return false;
            f.groups.resize(std::size_t(groups));
            for (VersionTally::Group &g : f.groups)
                if (!versionGroup(&g))
                    return false;
        }
        return in.status() == QDataStream::Ok;
    }
    bool documentShape(DocumentShape *s)
    {
        if (!distribution(&s->fieldCounts) || !distribution(&s->depths) || !tail(&s->mostFields) ||
            !tail(&s->deepest))
            return false;
        s->bigScalarBytes = u64();
        return in.status() == QDataStream::Ok;
    }
};

QByteArray ProfileCodec::encode(const CollectionProfile &profile)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_0);
    Writer w{out};
    out << kMagic << kVersion << quint64(profile.documents) << quint64(profile.bytesRead);
    w.distribution(profile.sizes);
    w.tail(profile.largestDocuments);
    w.tail(profile.longestArrays);
    out << quint64(profile.fields.size());
    for (const FieldProfile &f : profile.fields)
        w.field(f);
    w.documentShape(profile.shape);
    w.versions(profile.versions);
    return bytes;
}

std::optional<CollectionProfile> ProfileCodec::decode(const QByteArray &bytes)
{
    QDataStream in(bytes);
    in.setVersion(QDataStream::Qt_6_0);
    quint32 magic = 0, version = 0;
    in >> magic >> version;
    if (magic != kMagic || version < 1 || version > kVersion)
        return std::nullopt;
    Reader r{in, version};
    CollectionProfile profile;
    profile.documents = r.u64();
    profile.bytesRead = r.u64();
    if (!r.distribution(&profile.sizes) || !r.tail(&profile.largestDocuments) ||
        !r.tail(&profile.longestArrays))
        return std::nullopt;
    std::uint64_t fields = 0;
    if (!r.size(&fields))
        return std::nullopt;
    profile.fields.resize(std::size_t(fields));
    for (FieldProfile &f : profile.fields)
        if (!r.field(&f))
            return std::nullopt;
    if (version >= 3 && !r.documentShape(&profile.shape))
        return std::nullopt;
    if (version >= 4 && !r.versions(&profile.versions))
        return std::nullopt;
    if (in.status() != QDataStream::Ok || !in.atEnd())
        return std::nullopt;
    return profile;
}

} // namespace oe
