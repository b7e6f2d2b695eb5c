import Foundation
import Testing
import Trellis

/// The SQLite ports of two sample databases. Northwind: bracketed names,
/// a table and views whose names have spaces (`[Order Details]`), no
/// space between a column name and its type, a text primary key, a
/// self-reference, and a `Discontinued` flag stored as the text '0' or
/// '1'. Sakila: MySQL's types (`YEAR`, `SET`, `ENUM`), `int` primary
/// keys that are no rowid aliases, and triggers that stamp `last_update`.
@Suite struct NorthwindTests {
    static let script = #"""
        CREATE TABLE [Categories]
        (      [CategoryID] INTEGER PRIMARY KEY AUTOINCREMENT,
               [CategoryName] TEXT,
               [Description] TEXT,
               [Picture] BLOB
        );
        CREATE TABLE [Customers]
        (      [CustomerID] TEXT,
               [CompanyName] TEXT,
               [ContactName] TEXT,
               [Country] TEXT,
               PRIMARY KEY (`CustomerID`)
        );
        CREATE TABLE [Employees]
        (      [EmployeeID] INTEGER PRIMARY KEY AUTOINCREMENT,
               [LastName] TEXT,
               [FirstName] TEXT,
               [BirthDate] DATE,
               [ReportsTo] INTEGER,
        	   FOREIGN KEY ([ReportsTo]) REFERENCES [Employees] ([EmployeeID]) 
        		ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE TABLE [Shippers](
           [ShipperID]INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
           [CompanyName]TEXT NOT NULL,
           [Phone]TEXT
        );
        CREATE TABLE [Orders](
           [OrderID]INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
           [CustomerID]TEXT,
           [EmployeeID]INTEGER,
           [OrderDate]DATETIME,
           [ShipVia]INTEGER,
           [Freight]NUMERIC DEFAULT 0,
           FOREIGN KEY ([EmployeeID]) REFERENCES [Employees] ([EmployeeID]) 
        		ON DELETE NO ACTION ON UPDATE NO ACTION,
        	FOREIGN KEY ([CustomerID]) REFERENCES [Customers] ([CustomerID]) 
        		ON DELETE NO ACTION ON UPDATE NO ACTION,
        	FOREIGN KEY ([ShipVia]) REFERENCES [Shippers] ([ShipperID]) 
        		ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE TABLE [Products](
           [ProductID]INTEGER PRIMARY KEY AUTOINCREMENT,
           [ProductName]TEXT NOT NULL,
           [CategoryID]INTEGER,
           [UnitPrice]NUMERIC DEFAULT 0,
           [Discontinued]TEXT NOT NULL DEFAULT '0',
            CHECK ([UnitPrice]>=(0)),
        	FOREIGN KEY ([CategoryID]) REFERENCES [Categories] ([CategoryID]) 
        		ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE TABLE [Order Details](
           [OrderID]INTEGER NOT NULL,
           [ProductID]INTEGER NOT NULL,
           [UnitPrice]NUMERIC NOT NULL DEFAULT 0,
           [Quantity]INTEGER NOT NULL DEFAULT 1,
           [Discount]REAL NOT NULL DEFAULT 0,
            PRIMARY KEY ("OrderID","ProductID"),
            CHECK ([Discount]>=(0) AND [Discount]<=(1)),
            CHECK ([Quantity]>(0)),
            CHECK ([UnitPrice]>=(0)),
        	FOREIGN KEY ([OrderID]) REFERENCES [Orders] ([OrderID]) 
        		ON DELETE NO ACTION ON UPDATE NO ACTION,
        	FOREIGN KEY ([ProductID]) REFERENCES [Products] ([ProductID]) 
        		ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE VIEW [Alphabetical list of products]
        AS
        SELECT Products.*,
               Categories.CategoryName
        FROM Categories
           INNER JOIN Products ON Categories.CategoryID = Products.CategoryID
        WHERE (((Products.Discontinued)=0));
        CREATE VIEW [Order Subtotals] AS
        SELECT [Order Details].OrderID,
        Sum(([Order Details].UnitPrice*Quantity*(1-Discount)/100)*100) AS Subtotal
        FROM [Order Details]
        GROUP BY [Order Details].OrderID;
        INSERT INTO Categories VALUES (1, 'Beverages', 'Soft drinks, coffees, teas, beers, and ales', x'151C2F00'), (2, 'Condiments', 'Sweet and savory sauces', NULL);
        INSERT INTO Customers VALUES ('ALFKI', 'Alfreds Futterkiste', 'Maria Anders', 'Germany'), ('ANATR', 'Ana Trujillo Emparedados y helados', 'Ana Trujillo', 'Mexico'), ('FISSA', 'FISSA Fabrica Inter. Salchichas S.A.', 'Diego Roel', 'Spain');
        INSERT INTO Employees VALUES (2, 'Fuller', 'Andrew', '1952-02-19', NULL), (1, 'Davolio', 'Nancy', '1948-12-08', 2), (5, 'Buchanan', 'Steven', '1955-03-04', 2);
        INSERT INTO Shippers VALUES (1, 'Speedy Express', '(503) 555-9831'), (3, 'Federal Shipping', '(503) 555-9931');
        INSERT INTO Products VALUES (1, 'Chai', 1, 18, '0'), (2, 'Chang', 1, 19, '0'), (3, 'Aniseed Syrup', 2, 10, '0'), (5, 'Chef Anton''s Gumbo Mix', 2, 21.35, '1');
        INSERT INTO Orders VALUES (10643, 'ALFKI', 1, '2016-08-25', 1, 29.46), (10692, 'ALFKI', 5, '2016-10-03', 3, 61.02), (10308, 'ANATR', 1, '2016-09-18 00:00:00.000', 3, 1.61);
        INSERT INTO [Order Details] VALUES (10643, 1, 18, 15, 0.25), (10643, 2, 19, 21, 0.25), (10692, 5, 21.35, 20, 0), (10308, 3, 10, 5, 0);
        """#

    struct Customer: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "Customers"
        static let orders = hasMany(Order.self)
        var customerID: String
        var companyName: String?
        var contactName: String?
        var country: String?
        enum CodingKeys: String, CodingKey { case customerID = "CustomerID", companyName = "CompanyName", contactName = "ContactName", country = "Country" }
    }

    struct Employee: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Employees"
        static let manager = belongsTo(Employee.self, key: "manager")
        static let reports = hasMany(Employee.self, key: "reports")
        var employeeID: Int64
        var lastName: String
        var firstName: String
        var birthDate: Date
        var reportsTo: Int64?
        enum CodingKeys: String, CodingKey {
            case employeeID = "EmployeeID", lastName = "LastName", firstName = "FirstName", birthDate = "BirthDate", reportsTo = "ReportsTo"
        }
    }

    struct Order: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "Orders"
        static let customer = belongsTo(Customer.self)
        static let employee = belongsTo(Employee.self)
        static let shipper = belongsTo(Shipper.self)
        static let details = hasMany(OrderDetail.self, key: "details")
        static let products = hasMany(Product.self, through: details, using: OrderDetail.product, key: "products")
        var orderID: Int64?
        var customerID: String?
        var employeeID: Int64?
        var orderDate: Date?
        var shipVia: Int64?
        var freight: Decimal?
        enum CodingKeys: String, CodingKey {
            case orderID = "OrderID", customerID = "CustomerID", employeeID = "EmployeeID", orderDate = "OrderDate", shipVia = "ShipVia", freight = "Freight"
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { orderID = inserted.rowID }
    }

    struct Shipper: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "Shippers"
        var shipperID: Int64
        var companyName: String
        enum CodingKeys: String, CodingKey { case shipperID = "ShipperID", companyName = "CompanyName" }
    }

    struct Product: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Products"
        var productID: Int64
        var productName: String
        var unitPrice: Decimal
        var discontinued: Bool
        enum CodingKeys: String, CodingKey { case productID = "ProductID", productName = "ProductName", unitPrice = "UnitPrice", discontinued = "Discontinued" }
    }

    struct OrderDetail: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "Order Details"
        static let order = belongsTo(Order.self)
        static let product = belongsTo(Product.self)
        var orderID: Int64
        var productID: Int64
        var unitPrice: Decimal
        var quantity: Int
        var discount: Double
        enum CodingKeys: String, CodingKey { case orderID = "OrderID", productID = "ProductID", unitPrice = "UnitPrice", quantity = "Quantity", discount = "Discount" }
    }

    @Test func aTableWithASpaceInItsNameIsARecordLikeAnother() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            #expect(try db.tableExists("Order Details"))
            #expect(try db.primaryKey("Order Details").columns == ["OrderID", "ProductID"])
            #expect(try db.columns(in: "Order Details").map(\.type) == ["INTEGER", "INTEGER", "NUMERIC", "INTEGER", "REAL"])
            let keys = try db.foreignKeys(on: "Order Details")
            #expect(keys.map(\.destinationTable).sorted() == ["Orders", "Products"])
            #expect(try db.indexes(on: "Order Details").map(\.name) == ["sqlite_autoindex_Order Details_1"])
            let detail = try #require(try OrderDetail.fetchOne(db, key: ["OrderID": 10643, "ProductID": 2]))
            #expect(detail.quantity == 21)
            #expect(detail.unitPrice == 19)
            var changed = detail
            changed.quantity = 22
            try changed.update(db)
            #expect(try OrderDetail.fetchOne(db, key: ["OrderID": 10643, "ProductID": 2])?.quantity == 22)
            try OrderDetail(orderID: 10308, productID: 1, unitPrice: 14.4, quantity: 3, discount: 0).insert(db)
            try OrderDetail(orderID: 10308, productID: 1, unitPrice: 14.4, quantity: 4, discount: 0.05).upsert(db)
            #expect(try OrderDetail.filter(Column("OrderID") == 10308).order(Column("ProductID")).fetchAll(db).map(\.quantity) == [4, 5])
            #expect(try OrderDetail.exists(db, key: ["OrderID": 10308, "ProductID": 1]))
            #expect(try OrderDetail.deleteOne(db, key: ["OrderID": 10308, "ProductID": 1]))
            let check = #expect(throws: DatabaseError.self) {
                try OrderDetail(orderID: 10308, productID: 2, unitPrice: 19, quantity: 0, discount: 0).insert(db)
            }
            #expect(check?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
            #expect(check?.message == "CHECK constraint failed: Quantity")
            // The unit price is a decimal as the application wrote it.
            #expect(try OrderDetail.filter(Column("ProductID") == 5).fetchOne(db)?.unitPrice == Decimal(string: "21.35"))
        }
    }

    @Test func ordersJoinTheirCustomersDetailsAndProducts() throws {
        struct OrderInfo: Decodable, FetchableRecord {
            var order: Order
            var customer: Customer?
            var employee: Employee?
            var shipper: Shipper?
            var details: [OrderDetail]
            var products: [Product]
        }
        struct CustomerSummary: Decodable, FetchableRecord {
            var customerID: String
            var orderCount: Int
            var totalFreight: Double?
            enum CodingKeys: String, CodingKey { case customerID = "CustomerID", orderCount, totalFreight }
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            // The keys of the associations are the names of the tables,
            // singular: `Customer`, not `customer`. An optional property
            // would be nil for every order: the error names the key.
            let misnamed = #expect(throws: DecodingError.self) {
                try Order.including(optional: Order.customer).including(all: Order.details).including(all: Order.products)
                    .asRequest(of: OrderInfo.self).fetchAll(db)
            }
            guard case .keyNotFound(_, let context) = misnamed else {
                Issue.record("unexpected error \(String(describing: misnamed))")
                return
            }
            #expect(context.debugDescription == #"No such key: customer, but the row has the association key Customer: give the association the key "customer" (forKey("customer")) in OrderInfo"#)
            let infos = try Order
                .including(optional: Order.customer.forKey("customer"))
                .including(optional: Order.employee.forKey("employee"))
                .including(optional: Order.shipper.forKey("shipper"))
                .including(all: Order.details.order(Column("ProductID")))
                .including(all: Order.products.order(Column("ProductID")))
                .order(Column("OrderID"))
                .asRequest(of: OrderInfo.self).fetchAll(db)
            #expect(infos.map(\.order.orderID) == [10308, 10643, 10692])
            #expect(infos.map { $0.customer?.customerID } == ["ANATR", "ALFKI", "ALFKI"])
            #expect(infos.map { $0.employee?.lastName } == ["Davolio", "Davolio", "Buchanan"])
            #expect(infos.map { $0.shipper?.companyName } == ["Federal Shipping", "Speedy Express", "Federal Shipping"])
            #expect(infos.map { $0.details.map(\.productID) } == [[3], [1, 2], [5]])
            #expect(infos.map { $0.products.map(\.productName) } == [["Aniseed Syrup"], ["Chai", "Chang"], ["Chef Anton's Gumbo Mix"]])
            #expect(infos[1].order.freight == Decimal(string: "29.46"))
            // Dates with and without a time.
            #expect(infos[0].order.orderDate == Date(timeIntervalSince1970: 1_474_156_800))
            #expect(infos[1].order.orderDate == Date(timeIntervalSince1970: 1_472_083_200))

            let summaries = try Customer
                .annotated(with: Customer.orders.count, Customer.orders.sum(Column("Freight")).forKey("totalFreight"))
                .order(Column("CustomerID"))
                .asRequest(of: CustomerSummary.self).fetchAll(db)
            #expect(summaries.map(\.customerID) == ["ALFKI", "ANATR", "FISSA"])
            #expect(summaries.map(\.orderCount) == [2, 1, 0])
            #expect(summaries.map(\.totalFreight) == [90.48, 1.61, nil])
            let customer = try #require(try Customer.fetchOne(db, key: "ALFKI"))
            #expect(try customer.request(for: Customer.orders).fetchCount(db) == 2)
            #expect(try Customer.having(Customer.orders.isEmpty).fetchAll(db).map(\.customerID) == ["FISSA"])
        }
    }

    @Test func employeesReportToEmployees() throws {
        struct EmployeeInfo: Decodable, FetchableRecord {
            var employee: Employee
            var manager: Employee?
            var reports: [Employee]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let infos = try Employee
                .including(optional: Employee.manager)
                .including(all: Employee.reports.order(Column("EmployeeID")))
                .order(Column("EmployeeID"))
                .asRequest(of: EmployeeInfo.self).fetchAll(db)
            #expect(infos.map(\.employee.lastName) == ["Davolio", "Fuller", "Buchanan"])
            #expect(infos.map { $0.manager?.lastName } == ["Fuller", nil, "Fuller"])
            #expect(infos.map { $0.reports.map(\.lastName) } == [[], ["Davolio", "Buchanan"], []])
            #expect(infos[0].employee.birthDate == Date(timeIntervalSince1970: -664_761_600))
        }
    }

    @Test func textFlagsAndViewsWithSpaces() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            // '0' and '1' are text: read as booleans without loss.
            let products = try Product.order(Column("ProductID")).fetchAll(db)
            #expect(products.map(\.discontinued) == [false, false, false, true])
            #expect(products.map(\.unitPrice) == [18, 19, 10, Decimal(string: "21.35")])
            #expect(try db.viewExists("Alphabetical list of products"))
            #expect(try db.columns(in: "Alphabetical list of products").map(\.name)
                == ["ProductID", "ProductName", "CategoryID", "UnitPrice", "Discontinued", "CategoryName"])
            #expect(try Table("Alphabetical list of products").fetchCount(db) == 3)
            let subtotals = try Row.fetchAll(db, sql: "SELECT * FROM [Order Subtotals] ORDER BY OrderID")
            #expect(subtotals.map { $0["OrderID"] as Int64 } == [10308, 10643, 10692])
            #expect(try Table("Order Subtotals").select(Column("Subtotal"), as: Double.self).filter(Column("OrderID") == 10308).fetchOne(db) == 50)
        }
    }

    static let sakilaScript = #"""
        CREATE TABLE language (
          language_id SMALLINT NOT NULL ,
          name CHAR(20) NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY (language_id)
        );
        CREATE TABLE film (
          film_id int NOT NULL,
          title VARCHAR(255) NOT NULL,
          description BLOB SUB_TYPE TEXT DEFAULT NULL,
          release_year YEAR DEFAULT NULL,
          language_id SMALLINT NOT NULL,
          rental_rate DECIMAL(4,2) DEFAULT 4.99 NOT NULL,
          rating ENUM DEFAULT 'G',
          special_features VARCHAR(100) DEFAULT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (film_id),
          CONSTRAINT CHECK_special_rating CHECK(rating in ('G','PG','PG-13','R','NC-17')),
          CONSTRAINT fk_film_language FOREIGN KEY (language_id) REFERENCES language (language_id)
        );
        CREATE INDEX idx_fk_language_id ON film(language_id);
        CREATE TRIGGER film_trigger_ai AFTER INSERT ON film
         BEGIN
          UPDATE film SET last_update = DATETIME('NOW')  WHERE rowid = new.rowid;
         END;
        CREATE TRIGGER film_trigger_au AFTER UPDATE ON film
         BEGIN
          UPDATE film SET last_update = DATETIME('NOW')  WHERE rowid = new.rowid;
         END;
        INSERT INTO language VALUES (1, 'English', '2006-02-15 05:02:19'), (2, 'Italian', '2006-02-15 05:02:19');
        INSERT INTO film VALUES (1, 'ACADEMY DINOSAUR', 'A Epic Drama of a Feminist', 2006, 1, 0.99, 'PG', 'Deleted Scenes,Behind the Scenes', '2006-02-15 05:03:42'),
                                (2, 'ACE GOLDFINGER', 'A Astounding Epistle', 2006, 1, 4.99, 'G', 'Trailers,Deleted Scenes', '2006-02-15 05:03:42');
        """#

    struct Film: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "film"
        static let language = belongsTo(Language.self)
        var filmId: Int64?
        var title: String
        var description: String?
        var releaseYear: Int?
        var languageId: Int
        var rentalRate: Decimal
        var rating: String?
        var specialFeatures: String?
        var lastUpdate: Date
        var insertedRowID: Int64? = nil
        enum CodingKeys: String, CodingKey {
            case filmId = "film_id", title, description, releaseYear = "release_year", languageId = "language_id"
            case rentalRate = "rental_rate", rating, specialFeatures = "special_features", lastUpdate = "last_update"
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { insertedRowID = inserted.rowID }
    }

    struct Language: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "language"
        var languageId: Int
        var name: String
        enum CodingKeys: String, CodingKey { case languageId = "language_id", name }
    }

    @Test func sakilasIntKeysAreNoRowIDAndItsTriggersStampRows() throws {
        let file = try RealDatabaseFile(Self.sakilaScript)
        try file.open().write { (db) throws in
            let key = try db.primaryKey("film")
            #expect(key.columns == ["film_id"])
            #expect(key.rowIDColumn == nil)
            #expect(try db.columns(in: "film").map(\.type) == ["INT", "VARCHAR(255)", "BLOB SUB_TYPE TEXT", "YEAR", "SMALLINT", "DECIMAL(4,2)",
                                                             "ENUM", "VARCHAR(100)", "TIMESTAMP"])
            let films = try Film.including(required: Film.language).order(Column("film_id")).fetchAll(db)
            #expect(films.map(\.releaseYear) == [2006, 2006])
            #expect(films.map(\.rentalRate) == [Decimal(string: "0.99"), Decimal(string: "4.99")])
            #expect(films[0].specialFeatures?.split(separator: ",") == ["Deleted Scenes", "Behind the Scenes"])
            // An `int` key is no alias of the rowid: a film needs its id.
            var missing = Film(filmId: nil, title: "ADAPTATION HOLES", languageId: 1, rentalRate: 2.99, lastUpdate: Date(timeIntervalSince1970: 0))
            let error = #expect(throws: DatabaseError.self) { try missing.insert(db) }
            #expect(error?.message == "NOT NULL constraint failed: film.film_id")
            var film = Film(filmId: 7, title: "AIRPLANE SIERRA", languageId: 1, rentalRate: 4.99, rating: "PG-13", lastUpdate: Date(timeIntervalSince1970: 0))
            try film.insert(db)
            #expect(film.insertedRowID == 3)
            #expect(try Film.fetchOne(db, key: 7)?.title == "AIRPLANE SIERRA")
            // The trigger stamped the row.
            #expect(try Film.fetchOne(db, key: 7)?.lastUpdate != Date(timeIntervalSince1970: 0))
            let rating = #expect(throws: DatabaseError.self) {
                film.rating = "X"
                try film.update(db)
            }
            #expect(rating?.message == "CHECK constraint failed: CHECK_special_rating")
            #expect(try Film.deleteOne(db, key: 7))
            #expect(try Film.exists(db, key: 7) == false)
        }
    }
}
