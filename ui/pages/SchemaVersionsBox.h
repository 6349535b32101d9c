#pragma once

#include "shape/ShapeReport.h"

#include <QWidget>

#include <string>

class QComboBox;
class QLabel;

namespace oe {

// The Shape tab's line on schema versions: which field holds them (found, one of the watched
// fields, a name the user types, or none), each version's share of the documents, how many of
// the whole collection's flags the versions explain, and how the shares moved across the
// analysis history.
class SchemaVersionsBox : public QWidget
{
    Q_OBJECT
public:
    explicit SchemaVersionsBox(QWidget *parent = nullptr);

    void clear();
    void show(const ShapeReport &shape);

    QComboBox *fieldBox() const { return m_field; }
    QLabel *sharesLabel() const { return m_shares; }

signals:
    void versionsChosen(oe::ShapeOptions::Versions versions, const std::string &field);

private:
    void choose(int index);
    void typed();

    QComboBox *m_field;
    QLabel *m_shares;
};

} // namespace oe
