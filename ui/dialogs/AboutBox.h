#pragma once

class QWidget;

namespace oe {

// Help → About: the version, and the Qt, QCustomPlot and MongoDB C driver versions in use.
class AboutBox
{
public:
    static void show(QWidget *parent);
};

} // namespace oe
