import KilnViewModel
import Testing

@MainActor
@Suite("View descriptors")
struct ViewDescriptorTests {
    @Test func reuseIdentifierDefaultsToTheTemplate() {
        let descriptor = ViewDescriptor(template: "BlogCell", estimatedHeight: 64)
        #expect(descriptor.reuseIdentifier == "BlogCell")
        #expect(ViewDescriptor(template: "A", reuseIdentifier: "a.compact").reuseIdentifier == "a.compact")
    }

    @Test func itemViewModelsNameTheirView() {
        let item = BlogListItemViewModel(article: makeArticle(1, "MVVM", desc: "入门"))
        var catalog = ViewCatalog<BlogListItemViewModel, String>()
        catalog.register("BlogCell") { "▸ \($0.intro)" }
        #expect(catalog.view(for: item) == "▸ 标题:MVVM 内容:入门")
        #expect(catalog.descriptor(for: item).estimatedHeight == 64)
    }

    @Test func anUnregisteredTemplateHasNoView() {
        let catalog = ViewCatalog<any ViewDescribing, String>(describe: { $0.viewDescriptor })
        #expect(catalog.view(for: BlogListItemViewModel(article: makeArticle(1, "x"))) == nil)
    }
}
