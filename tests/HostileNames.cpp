#include "HostileNames.h"

namespace fixtures {

namespace {

QString u(const char16_t *text)
{
    return QString::fromUtf16(text);
}

// Each generated language's injection through a string literal (or a comment).
const QString kPythonInjection =
    QStringLiteral(R"(x"+str(__import__("os").system("touch P"))[:0]+")");
const QString kJsInjection = QStringLiteral(R"(x'+require('child_process').execSync('touch P')+')");
const QString kJsInjection2 =
    QStringLiteral(R"(x"+require("child_process").execSync("touch P")+")");
const QString kJsTemplateInjection =
    QStringLiteral(R"(a${require("child_process").execSync("touch P")})");
const QString kCInjection = QStringLiteral(R"(x"); system("touch P"); (")");
const QString kCCommentInjection = QStringLiteral(
    "x*/\n__attribute__((constructor)) static void oe_injected(void) { system(\"touch P\"); }\n/*");
const QString kJavaInjection = QStringLiteral(
    R"(x"+new Object(){{try{new java.io.File("P").createNewFile();}catch(Exception e){}}}+")");
const QString kGoInjection = QStringLiteral("x\nfunc init() { panic(\"injected\") }\n//");

} // namespace

QList<std::pair<QString, QString>> hostileNames()
{
    return {
        {QStringLiteral("double quote"), QStringLiteral("a\"b")},
        {QStringLiteral("single quote"), QStringLiteral("o'reilly")},
        {QStringLiteral("backslash"), QStringLiteral("a\\b")},
        {QStringLiteral("trailing backslash"), QStringLiteral("ab\\")},
        {QStringLiteral("newline"), QStringLiteral("a\nb")},
        {QStringLiteral("carriage return"), QStringLiteral("a\rb")},
        {QStringLiteral("tab"), QStringLiteral("a\tb")},
        {QStringLiteral("control"), QStringLiteral("a\x01\x1f\x7f"
                                                   "b")},
        {QStringLiteral("template"), QStringLiteral("a${x}")},
        {QStringLiteral("comment end"), QStringLiteral("*/")},
        {QStringLiteral("comment start"), QStringLiteral("/*")},
        {QStringLiteral("line comment"), QStringLiteral("//")},
        {QStringLiteral("trigraph"), QStringLiteral("?\?=?\?/?\?'")},
        {QStringLiteral("hex digits after escape"), u(u"\u00e9ABCDEF0123")},
        {QStringLiteral("java unicode escape"), QStringLiteral("\\u0022\\u000a")},
        {QStringLiteral("percent"), QStringLiteral("%1%2%10")},
        {QStringLiteral("braces"), QStringLiteral("{{collection}}")},
        {QStringLiteral("opening bracket"), QStringLiteral("[x]")},
        {QStringLiteral("closing brace"), QStringLiteral("}")},
        {QStringLiteral("hyphen"), QStringLiteral("my-items")},
        {QStringLiteral("space"), QStringLiteral("my items")},
        {QStringLiteral("leading digit"), QStringLiteral("1st")},
        {QStringLiteral("digits only"), QStringLiteral("2147483648")},
        {QStringLiteral("underscore only"), QStringLiteral("_")},
        {QStringLiteral("func"), QStringLiteral("func")},
        {QStringLiteral("class"), QStringLiteral("class")},
        {QStringLiteral("package"), QStringLiteral("package")},
        {QStringLiteral("import"), QStringLiteral("import")},
        {QStringLiteral("def"), QStringLiteral("def")},
        {QStringLiteral("int"), QStringLiteral("int")},
        {QStringLiteral("default"), QStringLiteral("default")},
        {QStringLiteral("new"), QStringLiteral("new")},
        {QStringLiteral("None"), QStringLiteral("None")},
        {QStringLiteral("true"), QStringLiteral("true")},
        {QStringLiteral("main"), QStringLiteral("main")},
        {QStringLiteral("latin"), u(u"\u00e9t\u00e9")},
        {QStringLiteral("cjk"), u(u"\u4e2d\u6587")},
        {QStringLiteral("emoji"), u(u"\U0001F600")},
        {QStringLiteral("line separator"), u(u"a\u2028b")},
        {QStringLiteral("paragraph separator"), u(u"a\u2029b")},
        {QStringLiteral("bidi override"), u(u"a\u202eb")},
        {QStringLiteral("5000 characters"), QString(5000, QLatin1Char('x'))},
        {QStringLiteral("python injection"), kPythonInjection},
        {QStringLiteral("js injection"), kJsInjection},
        {QStringLiteral("js injection 2"), kJsInjection2},
        {QStringLiteral("js template injection"), kJsTemplateInjection},
        {QStringLiteral("c injection"), kCInjection},
        {QStringLiteral("c comment injection"), kCCommentInjection},
        {QStringLiteral("java injection"), kJavaInjection},
        {QStringLiteral("go injection"), kGoInjection},
    };
}

QList<HostileLayout> hostileLayouts()
{
    QList<HostileLayout> out;
    auto add = [&out](const QString &tag, const QString &collection, const QString &field) {
        HostileLayout l;
        l.tag = tag;
        l.config.collection = collection;
        l.config.field = field;
        l.config.keep = 2;
        l.config.pageSize = 2;
        out << l;
        return &out.last().config;
    };
    oe::SplitConfig *c =
        add(QStringLiteral("python"), kPythonInjection, QStringLiteral("a\\b.o'reilly"));
    c->linkField = QStringLiteral("\"");
    c->pageField = QStringLiteral("'");
    c->itemsField = QStringLiteral("\\");
    c->flagField = QStringLiteral("a${x}");
    c->countField = QStringLiteral("*/");
    c->pagesField = QStringLiteral("/*");

    c = add(QStringLiteral("js"), kJsInjection, QStringLiteral("my-items.") + kJsTemplateInjection);
    c->overflowCollection = kJsInjection2;
    c->linkField = QStringLiteral("a\nb");
    c->pageField = QStringLiteral("a\rb");
    c->itemsField = QStringLiteral("a\tb");
    c->flagField = u(u"a\u2028b");
    c->countField = u(u"a\u2029b");
    c->pagesField = QStringLiteral("?\?=");

    c = add(QStringLiteral("c"), QStringLiteral("func"), kCCommentInjection);
    c->overflowCollection = QStringLiteral("9 lives");
    c->linkField = kCInjection;
    c->pageField = QStringLiteral("?\?/");
    c->itemsField = QStringLiteral("/* */");
    c->flagField = QStringLiteral("default");
    c->countField = QStringLiteral("int");
    c->pagesField = QStringLiteral("None");

    c = add(QStringLiteral("java"), QStringLiteral("class"), kJavaInjection);
    c->overflowCollection = QStringLiteral("]"); // libbson's BCON reads it as structure
    c->linkField = QStringLiteral("\\u0022");
    c->pageField = QStringLiteral("new");
    c->itemsField = QStringLiteral("true");
    c->flagField = QStringLiteral("package");
    c->countField = QStringLiteral("import");
    c->pagesField = QStringLiteral("def");

    c = add(QStringLiteral("go and unicode"), u(u"\u4e2d\u6587"), kGoInjection);
    c->overflowCollection = u(u"\U0001F600");
    c->linkField = u(u"\u00e9");
    c->pageField = u(u"\u4e2d\u6587");
    c->itemsField = u(u"\U0001F600");
    c->flagField = QStringLiteral("1st");
    c->countField = QStringLiteral("o'reilly");

    c = add(QStringLiteral("leading digit"), QStringLiteral("package"),
            u(u"1st.\u00e9.\u4e2d\u6587.\U0001F600"));
    c->overflowCollection = QStringLiteral("import");
    c->linkField = QStringLiteral("my-items");
    c->flagField = QStringLiteral("{{flag}}");
    c->countField = QStringLiteral("%1");

    // The largest numbers: keep and page size past 32 bits; a 5,000-character array name.
    c = add(QStringLiteral("numbers and length"), QStringLiteral("1st"),
            QString(5000, QLatin1Char('x')));
    c->keep = 2147483648;
    c->pageSize = 3000000000;
    c->countField = QStringLiteral("n");
    c->pagesField = QStringLiteral("p");
    return out;
}

} // namespace fixtures
